package org.jwd.routing;

import java.util.List;

import org.jwd.affinity.PathParameter;

/**
 * A request path after {@link PathNormalizer#normalize(String)}: decoded once, dot segments resolved, empty
 * segments collapsed, path parameters and the parts of mangled segments set apart. Only the normalizer creates
 * instances, so holding one proves the path passed the checks.
 *
 * <p>Routing decides on {@link #path()}; the request is forwarded with {@link #forwardPath()}, the path exactly as
 * the client sent it, as SAP's Web Dispatcher forwards it. The normalizer refuses whatever servers could read
 * otherwise than {@link #path()} says, and {@link #decodedFirst()} is the one other reading the URL filter also
 * checks.
 */
public final class NormalizedPath {
    private final String path;
    private final String literalPath;
    private final String forwardPath;
    private final List<PathParameter> parameters;
    private final List<String> mangledParts;
    private final NormalizedPath decodedFirst;

    /** The lists are not copied (this is per request): the normalizer hands over lists nobody changes. */
    NormalizedPath(String path, String literalPath, String forwardPath, List<PathParameter> parameters,
                   List<String> mangledParts, NormalizedPath decodedFirst) {
        this.path = path;
        this.literalPath = literalPath;
        this.forwardPath = forwardPath;
        this.parameters = parameters;
        this.mangledParts = mangledParts;
        this.decodedFirst = decodedFirst;
    }

    /** A canonical path: every form is the path itself. */
    static NormalizedPath canonical(String raw) {
        return new NormalizedPath(raw, raw, raw, List.of(), List.of(), null);
    }

    NormalizedPath withDecodedFirst(NormalizedPath reading) {
        return new NormalizedPath(path, literalPath, forwardPath, parameters, mangledParts, reading);
    }

    /**
     * The decoded, resolved path without parameters that every prefix match reads; starts with '/'. A mangled
     * segment ({@code sap(bD1lbiZjPTAwMQ==)}) is its plain name ({@code sap}), as the ICF reads it; an encoded
     * slash inside a segment stays {@code %2F}, so that it splits nothing.
     */
    public String path() {
        return path;
    }

    /**
     * {@link #path()} with mangled segments as they are ({@code /sap(bD1lbiZjPTAwMQ==)/bc/x}): what a Java server
     * reads, and what a permission table pattern that names a parenthesis is compared with.
     */
    public String literalPath() {
        return literalPath;
    }

    /** The path exactly as received, parameters and encodings included: what the server receives. */
    public String forwardPath() {
        return forwardPath;
    }

    /** Every path parameter, of every segment, in the order sent. */
    public List<PathParameter> parameters() {
        return parameters;
    }

    /**
     * The parenthesised parts of the mangled segments, in the order sent ({@code bD1lbiZjPTAwMQ==} of
     * {@code /sap(bD1lbiZjPTAwMQ==)/bc/x}), decoded as the path is.
     */
    public List<String> mangledParts() {
        return mangledParts;
    }

    /**
     * The path as a server that decodes before it splits reads it ({@code %2F} a '/', {@code %3B} a ';'), or
     * {@code null} when the path encodes neither. The URL filter checks this reading too.
     */
    public NormalizedPath decodedFirst() {
        return decodedFirst;
    }

    /**
     * The value of the last path parameter with this name (compared ignoring case, as servers treat
     * {@code jsessionid} and {@code JSESSIONID} alike), or {@code null}. The last one wins because that is
     * the one next to the resource, which is what Java servers read.
     */
    public String parameter(String name) {
        for (int i = parameters.size() - 1; i >= 0; i--) {
            PathParameter p = parameters.get(i);
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
        return o instanceof NormalizedPath other && path.equals(other.path) && literalPath.equals(other.literalPath)
                && forwardPath.equals(other.forwardPath) && parameters.equals(other.parameters)
                && mangledParts.equals(other.mangledParts);
    }

    @Override
    public int hashCode() {
        return path.hashCode() * 31 + forwardPath.hashCode();
    }

    @Override
    public String toString() {
        return forwardPath.equals(path) ? path : path + " (sent as " + forwardPath + ")";
    }
}
