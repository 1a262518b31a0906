package org.jwd.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;

import org.junit.jupiter.api.Test;

class SectionsTest {
    private record Limits(int max) {
    }

    @Test
    void aSectionReadIsFoundByItsTypeAndOneNotReadIsNamedWhenRequired() {
        Sections sections = new Sections.Builder().put(Limits.class, new Limits(5)).put(String.class, null)
                .build(Set.of());

        assertThat(sections.get(Limits.class)).isEqualTo(new Limits(5));
        assertThat(sections.find(String.class)).isEmpty();
        assertThatThrownBy(() -> Sections.NONE.get(Limits.class)).isInstanceOf(IllegalStateException.class)
                .hasMessage("no Limits section: the configuration was read without it");
    }
}
