package org.jwd.systems;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

import org.jwd.config.KeyReader;
import org.jwd.routing.UrlPrefix;
import org.jwd.tls.SslEncrypt;

/**
 * Reads the value of one {@code wdisp/system_<xx>} entry: {@code NAME=value} subparameters separated by ',',
 * list items separated by ';' (SAP's syntax; see the package comment). Subparameter names are read regardless of
 * case; each may be given once. Every problem is reported, each naming the key, the whole value, the subparameter
 * and what is expected, so one round fixes them all.
 */
final class SystemEntryParser {
    static final Pattern SID = Pattern.compile("[A-Z][A-Z0-9]{2}");
    static final String SID_EXPECTED = "three capital letters or digits starting with a letter (ERP, PR1)";
    private static final List<String> KNOWN = List.of("SID", "SRCSRV", "SRCURL", "SRCVHOST", "SSL_ENCRYPT", "EXTSRV",
            "STICKY", "MSHOST", "MSPORT", "MSSPORT", "SILOC");
    /** SAP's further ways to find a system's servers, which jwd does not follow. */
    private static final Set<String> SERVER_SOURCES = Set.of("NR", "SCSHOST", "CLIENT", "XSSRV", "PINGURL",
            "PROXY");
    /** SAP's further subparameters: documented there, not (yet) done here. */
    private static final Set<String> NOT_SUPPORTED = Set.of("CONFIG_PROTOCOL", "STANDARD_COOKIE_FILTER",
            "SSL_CLIENT_PSE", "SSL_IGNORE_HOST_MISMATCH", "SSL_CERTHOST", "RUNLEVEL", "CACHE_INFO_URL",
            "CACHE_INFO_POLL_INTERVAL");

    private final int number;
    private final String key;
    private final String value;
    private final KeyReader problems;

    private SystemEntryParser(int number, String value, KeyReader problems) {
        this.number = number;
        this.key = SystemEntry.KEY_PREFIX + number;
        this.value = value;
        this.problems = problems;
    }

    /**
     * @param number   the {@code <xx>} of the key
     * @param problems where each problem found is reported, located at the entry's line
     * @return the entry, or {@code null} when it has problems
     */
    static SystemEntry parse(int number, String value, KeyReader problems) {
        return new SystemEntryParser(number, value, problems).run();
    }

    private SystemEntry run() {
        int before = problems.problemCount();
        Map<String, String> subparameters = subparameters();
        String sid = sid(subparameters);
        List<AccessPoint> accessPoints = list(subparameters, "SRCSRV", AccessPoint::parse, AccessPoint.EXPECTED);
        List<UrlPrefix> urlPrefixes = list(subparameters, "SRCURL", SystemEntryParser::urlPrefix,
                "a path starting with '/' (or case:/ or icase:/)");
        List<VirtualHost> virtualHosts = list(subparameters, "SRCVHOST", VirtualHost::parse, VirtualHost.EXPECTED);
        checkSomeCriterion(subparameters, sid);
        SslEncrypt sslEncrypt = sslEncrypt(subparameters);
        List<URI> externalServers = list(subparameters, "EXTSRV", SystemEntryParser::externalServer,
                "http://host:port or https://host:port");
        boolean sticky = sticky(subparameters);
        ServerSource source = serverSource(subparameters);
        if (problems.problemCount() > before) {
            return null;
        }
        return new SystemEntry(number, sid, accessPoints, urlPrefixes, virtualHosts, sslEncrypt, externalServers,
                sticky, source);
    }

    /**
     * MSHOST with MSPORT or MSSPORT, or SILOC; {@code null} when none is given. SAP's table of the subparameters'
     * conditions: MSHOST, EXTSRV and SILOC exclude one another, and MSHOST needs one of its ports.
     */
    private ServerSource serverSource(Map<String, String> subparameters) {
        String host = subparameters.get("MSHOST");
        Integer port = port(subparameters, "MSPORT");
        Integer securePort = port(subparameters, "MSSPORT");
        String siloc = subparameters.get("SILOC");
        long given = java.util.stream.Stream.of("MSHOST", "EXTSRV", "SILOC").filter(subparameters::containsKey)
                .count();
        if (given > 1) {
            problem("MSHOST, EXTSRV and SILOC each give the system's servers: expected one of them");
            return null;
        }
        if (host == null && (subparameters.containsKey("MSPORT") || subparameters.containsKey("MSSPORT"))) {
            problem("MSPORT and MSSPORT are the ports of MSHOST: expected MSHOST=<message server host> beside them");
            return null;
        }
        if (host != null && !subparameters.containsKey("MSPORT") && !subparameters.containsKey("MSSPORT")) {
            problem("MSHOST needs the message server's HTTP port, MSPORT=<port>, or its HTTPS port, MSSPORT=<port>");
            return null;
        }
        if (siloc != null) {
            if (!siloc.regionMatches(true, 0, "file://", 0, 7) || siloc.length() == 7) {
                problem("SILOC '" + siloc + "': expected file://<path of a server list>");
                return null;
            }
            return new ServerSource(null, null, null, java.nio.file.Path.of(siloc.substring(7)).toUri());
        }
        return host == null ? null : new ServerSource(host, port, securePort, null);
    }

    private Integer port(Map<String, String> subparameters, String name) {
        String text = subparameters.get(name);
        if (text == null) {
            return null;
        }
        try {
            int port = Integer.parseInt(text);
            if (port >= 1 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        problem(name + " '" + text + "': expected a port number (1-65535)");
        return null;
    }

    /** SID, as given (problems reported). */
    private String sid(Map<String, String> subparameters) {
        String sid = subparameters.get("SID");
        if (sid == null) {
            problem("SID is missing: expected SID=<" + SID_EXPECTED + ">");
        } else if (!SID.matcher(sid).matches()) {
            problem("SID '" + sid + "': expected " + SID_EXPECTED);
        }
        return sid;
    }

    /** An entry without SRCSRV, SRCURL and SRCVHOST would say nothing about which requests it takes. */
    private void checkSomeCriterion(Map<String, String> subparameters, String sid) {
        if (!subparameters.containsKey("SRCSRV") && !subparameters.containsKey("SRCURL")
                && !subparameters.containsKey("SRCVHOST")) {
            problem("expected at least one of SRCSRV, SRCURL and SRCVHOST: they decide which requests go to "
                    + (sid == null ? "the system" : sid));
        }
    }

    /** SSL_ENCRYPT, or {@code null} when not given (or wrong, reported). */
    private SslEncrypt sslEncrypt(Map<String, String> subparameters) {
        String ssl = subparameters.get("SSL_ENCRYPT");
        if (ssl == null) {
            return null;
        }
        SslEncrypt sslEncrypt = SslEncrypt.parse(ssl);
        if (sslEncrypt == null) {
            problem("SSL_ENCRYPT '" + ssl + "': expected 0 (plain HTTP to the servers), 1 (HTTPS) or 2 (the"
                    + " client's protocol)");
        }
        return sslEncrypt;
    }

    /** STICKY, false when not given (or wrong, reported); only EXTSRV servers need it. */
    private boolean sticky(Map<String, String> subparameters) {
        String stickyText = subparameters.get("STICKY");
        if (stickyText == null) {
            return false;
        }
        if (!subparameters.containsKey("EXTSRV")) {
            problem("STICKY '" + stickyText + "': expected only with EXTSRV (a system's own servers keep their"
                    + " sessions by the session table and saplb_* cookies)");
        } else if (stickyText.equalsIgnoreCase("true") || stickyText.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(stickyText.toLowerCase(Locale.ROOT));
        } else {
            problem("STICKY '" + stickyText + "': expected true or false");
        }
        return false;
    }

    /** The subparameters by upper-case name; unknown, unsupported and repeated ones reported. */
    private Map<String, String> subparameters() {
        Map<String, String> result = new LinkedHashMap<>();
        for (String part : value.split(",")) {
            String item = part.strip();
            if (item.isEmpty()) {
                // SAP's own examples end subparameters with ',': an empty one is nothing
                continue;
            }
            int eq = item.indexOf('=');
            if (eq <= 0) {
                problem("'" + item + "': expected NAME=value (subparameters separated by ',', list items by ';')");
                continue;
            }
            String name = item.substring(0, eq).strip().toUpperCase(Locale.ROOT);
            String text = item.substring(eq + 1).strip();
            if (SERVER_SOURCES.contains(name)) {
                problem(name + " is a way of SAP's to find the system's servers that jwd does not follow: expected"
                        + " MSHOST with MSPORT or MSSPORT (the message server), SILOC, the servers as"
                        + " system.<SID>.server.<id>.* keys, or EXTSRV for a non-SAP web server");
            } else if (NOT_SUPPORTED.contains(name)) {
                problem(name + " is not supported by jwd: expected one of " + String.join(", ", KNOWN));
            } else if (!KNOWN.contains(name)) {
                problem("unknown subparameter '" + item.substring(0, eq).strip() + "': expected one of "
                        + String.join(", ", KNOWN));
            } else if (text.isEmpty()) {
                problem(name + " is empty: expected a value");
            } else if (result.putIfAbsent(name, text) != null) {
                problem(name + " is given twice: expected it once (list items separated by ';')");
            }
        }
        return result;
    }

    private <T> List<T> list(Map<String, String> subparameters, String name, Function<String, T> reader,
                             String expected) {
        String text = subparameters.get(name);
        if (text == null) {
            return List.of();
        }
        List<T> items = new ArrayList<>();
        for (String part : text.split(";")) {
            String item = part.strip();
            if (item.isEmpty()) {
                continue;
            }
            T read;
            try {
                read = reader.apply(item);
            } catch (IllegalArgumentException e) {
                problem(name + " item '" + item + "': " + e.getMessage());
                continue;
            }
            if (read == null) {
                problem(name + " item '" + item + "': expected " + expected);
            } else if (!items.contains(read)) {
                items.add(read);
            }
        }
        if (items.isEmpty() && text.replace(";", "").isBlank()) {
            problem(name + " '" + text + "': expected at least one item, items separated by ';'");
        }
        return items;
    }

    private static UrlPrefix urlPrefix(String text) {
        try {
            return UrlPrefix.parse(text);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static URI externalServer(String text) {
        URI uri;
        try {
            uri = new URI(text);
        } catch (URISyntaxException e) {
            return null;
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        boolean bare = (uri.getRawPath() == null || uri.getRawPath().isEmpty() || uri.getRawPath().equals("/"))
                && uri.getRawQuery() == null && uri.getRawFragment() == null && uri.getRawUserInfo() == null;
        if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null || uri.getPort() < 1 || !bare) {
            return null;
        }
        return URI.create(scheme + "://" + uri.getRawAuthority());
    }

    private void problem(String detail) {
        problems.problemText(key, key + " = '" + value + "': " + detail);
    }
}
