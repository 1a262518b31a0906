package org.jwd.demo;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * A page of the demo kept as a resource beside this class ({@code portal.html}), its {@code {{name}}} placeholders
 * filled in: with text, escaped for HTML, or with markup as it is.
 */
record Template(String text) {
    static Template of(String resource) {
        return new Template(resource(resource));
    }

    /** The text of a resource beside this class, such as a page's style sheet or script. */
    static String resource(String name) {
        try (InputStream in = Template.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("no resource " + name + " beside " + Template.class.getName());
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the resource " + name, e);
        }
    }

    /** {@code {{name}}} replaced by {@code text}, escaped for HTML. */
    Template with(String name, Object text) {
        return withMarkup(name, Answers.escape(String.valueOf(text)));
    }

    /** {@code {{name}}} replaced by {@code markup} as it is. */
    Template withMarkup(String name, String markup) {
        return new Template(text.replace("{{" + name + "}}", markup));
    }
}
