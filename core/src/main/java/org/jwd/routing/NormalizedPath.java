package org.jwd.routing;

import java.util.List;
import java.util.Objects;

/**
 * A request path after {@link PathNormalizer#normalize(String)}: decoded once, dot segments resolved,
 * empty segments collapsed, path parameters set apart. Only the normalizer creates instances, so holding
 * one proves the path passed the checks.
 *
 * <p>Routing decides on {@link #path()}; the request is forwarded with {@link #forwardPath()}, which is the
 * same path re-encoded, so the server cannot see anything other than what was routed.
 */
public final class NormalizedPath {
    /** A path parameter ({@code ;name=value}), decoded; {@code value} is empty when there was no '='. */
    public record Parameter(String name, String value) {
        public Parameter {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(value, "value");
        }

        @Override
        public String toString() {
            return name + "=" + value;
        }
    }

    private final String path;
    private final String forwardPath;
    private final List<Parameter> parameters;

    /** @param parameters not copied (this is per request): the normalizer hands over a list nobody changes */
    NormalizedPath(String path, String forwardPath, List<Parameter> parameters) {
        this.path = path;
        this.forwardPath = forwardPath;
        this.parameters = parameters;
    }

    /** The decoded, resolved path without parameters that routing matches on; starts with '/'. */
    public String path() {
        return path;
    }

    /**
     * The same path, percent-encoded where it must be, with the path parameters of the segments that
     * remained; a server decoding it once sees exactly {@link #path()} plus the parameters.
     */
    public String forwardPath() {
        return forwardPath;
    }

    /** Every path parameter of the remaining segments, in order. */
    public List<Parameter> parameters() {
        return parameters;
    }

    /**
     * The value of the last path parameter with this name (compared ignoring case, as servers treat
     * {@code jsessionid} and {@code JSESSIONID} alike), or {@code null}. The last one wins because that is
     * the one next to the resource, which is what Java servers read.
     */
    public String parameter(String name) {
        for (int i = parameters.size() - 1; i >= 0; i--) {
            Parameter p = parameters.get(i);
            if (p.name().equalsIgnoreCase(name)) {
                return p.value();
            }
        }
        return null;
    }

    /** A root URL in SAP's sense: the path has a single slash ({@code /}, {@code /index.html}). */
    public boolean isRoot() {
        return path.indexOf('/', 1) < 0;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NormalizedPath other && path.equals(other.path)
                && forwardPath.equals(other.forwardPath) && parameters.equals(other.parameters);
    }

    @Override
    public int hashCode() {
        return path.hashCode() * 31 + forwardPath.hashCode();
    }

    @Override
    public String toString() {
        return forwardPath.equals(path) ? path : path + " (forwarded as " + forwardPath + ")";
    }
}
