package org.jwd.affinity;

import java.util.Objects;

/**
 * A path parameter of a request's URL ({@code ;name=value} after a segment), decoded; the URL form of SAP's session
 * identifiers ({@code ;jsessionid=}, {@code ;sap-ext-sid=}, {@code ;saplb_<group>=}).
 *
 * @param value empty when there was no '='
 */
public record PathParameter(String name, String value) {
    public PathParameter {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(value, "value");
    }

    @Override
    public String toString() {
        return name + "=" + value;
    }
}
