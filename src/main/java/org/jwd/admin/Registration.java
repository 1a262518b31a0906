package org.jwd.admin;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

import org.jwd.config.ConfigException;
import org.jwd.config.DispatcherConfig;
import org.jwd.config.LogonGroupConfig;
import org.jwd.config.ServerConfig;
import org.jwd.config.ServerType;

/**
 * Reads the body of {@code PUT /jwd/admin/api/servers/<id>}, a server's report of itself, into the
 * {@link ServerConfig} a {@code server.<id>.*} block would give, with the same rules and defaults:
 *
 * <pre>
 * {"url": "http://10.0.0.7:50000", "type": "j2ee", "capacity": 2, "logon_groups": ["PORTAL"]}
 * </pre>
 *
 * Optional: {@code https_url}, {@code lb_id}, {@code name}, {@code route}, {@code health_path}; {@code url} may be
 * left out when {@code https_url} is given (a server with only an HTTPS port); logon groups may also be one
 * comma-separated string. Unknown fields are refused, as unknown keys are in the configuration file.
 * The body comes as Jackson's tree, read with {@link AdminJson#readUntrusted}'s limits, rather than bound to a
 * record: binding stops at the first bad field, and an operator should see every problem at once.
 */
public final class Registration {
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9_-]+");
    static final Set<String> FIELDS = Set.of("url", "https_url", "type", "capacity", "logon_groups", "lb_id", "name",
            "route", "health_path");

    private Registration() {
    }

    /** Whether {@code id} could name a server (as in {@code server.<id>.*}). */
    public static boolean validId(String id) {
        return id != null && id.length() <= 100 && ID.matcher(id).matches();
    }

    /**
     * @param config the configuration in force: logon groups must be defined there
     * @throws ConfigException one message per problem, naming the field, the value and what is expected
     */
    public static ServerConfig parse(String id, JsonNode body, DispatcherConfig config) throws ConfigException {
        List<String> problems = new ArrayList<>();
        if (!validId(id)) {
            throw new ConfigException(problem("id", id, "a server id of letters, digits, '_' or '-'"));
        }
        if (!body.isObject()) {
            throw new ConfigException(problem("body", body.toString(), "a JSON object"));
        }
        body.fieldNames().forEachRemaining(key -> {
            if (!FIELDS.contains(key)) {
                problems.add(problem(key, text(body.get(key)), "a known field: one of "
                        + String.join(", ", new TreeSet<>(FIELDS))));
            }
        });
        URI url = null;
        JsonNode urlValue = value(body, "url");
        if (urlValue == null && value(body, "https_url") == null) {
            // the same rule as server.<id>.url and https_url: one of them, or both
            problems.add(problem("url", "", "http://host:port, or https_url = https://host:port, or both (one is "
                    + "required)"));
        } else if (urlValue != null) {
            url = url(text(urlValue), "http");
            if (url == null) {
                problems.add(problem("url", text(urlValue), "http://host:port"));
            }
        }
        URI httpsUrl = null;
        JsonNode httpsUrlValue = value(body, "https_url");
        if (httpsUrlValue != null) {
            httpsUrl = url(text(httpsUrlValue), "https");
            if (httpsUrl == null) {
                problems.add(problem("https_url", text(httpsUrlValue), "https://host:port"));
            }
        }
        ServerType type = null;
        JsonNode typeValue = value(body, "type");
        if (typeValue == null) {
            problems.add(problem("type", "", "j2ee or abap (required)"));
        } else {
            type = ServerType.parse(text(typeValue));
            if (type == null) {
                problems.add(problem("type", text(typeValue), "j2ee or abap"));
            }
        }
        int capacity = 1;
        JsonNode capacityValue = value(body, "capacity");
        if (capacityValue != null) {
            capacity = positiveInt(capacityValue);
            if (capacity <= 0) {
                problems.add(problem("capacity", text(capacityValue), "a positive integer"));
            }
        }
        Set<String> groups = new LinkedHashSet<>();
        JsonNode groupsValue = value(body, "logon_groups");
        if (groupsValue != null && groupsValue.isArray()) {
            groupsValue.forEach(g -> groups.add(text(g).strip()));
        } else if (groupsValue != null) {
            for (String g : text(groupsValue).split(",")) {
                if (!g.isBlank()) {
                    groups.add(g.strip());
                }
            }
        }
        for (String g : groups) {
            if (config.logonGroups().stream().map(LogonGroupConfig::name).noneMatch(g::equals)) {
                problems.add(problem("logon_groups", g, "a logon group defined by logon_group." + g
                        + ".url_prefixes in the configuration"));
            }
        }
        String lbId = token(body, "lb_id", id, problems);
        String name = token(body, "name", id, problems);
        String route = token(body, "route", null, problems);
        String healthPath = type == ServerType.ABAP ? ServerConfig.ABAP_PING_PATH : "/";
        JsonNode healthPathValue = value(body, "health_path");
        if (healthPathValue != null) {
            String p = text(healthPathValue);
            if (!p.startsWith("/") || p.chars().anyMatch(c -> c <= ' ')) {
                problems.add(problem("health_path", p, "a path starting with '/'"));
            } else {
                healthPath = p;
            }
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        return new ServerConfig(id, url, httpsUrl, type, capacity, groups, lbId, name, route, healthPath);
    }

    /** The field's value; {@code null} when it is absent or JSON's {@code null}, as a key left out of the file. */
    private static JsonNode value(JsonNode body, String field) {
        JsonNode v = body.get(field);
        return v == null || v.isNull() ? null : v;
    }

    private static String token(JsonNode body, String field, String fallback, List<String> problems) {
        JsonNode v = value(body, field);
        if (v == null) {
            return fallback;
        }
        String t = text(v);
        if (t.isEmpty() || t.chars().anyMatch(Character::isWhitespace)) {
            problems.add(problem(field, t, "a non-empty value without spaces"));
            return fallback;
        }
        return t;
    }

    private static int positiveInt(JsonNode v) {
        if (v.isNumber()) {
            // 2 and 2.0 alike, as the configuration file's "2"; 2.5 is no capacity
            return v.canConvertToExactIntegral() && v.asDouble() > 0 && v.asDouble() <= Integer.MAX_VALUE
                    ? v.asInt() : -1;
        }
        try {
            int i = Integer.parseInt(text(v).strip());
            return i > 0 ? i : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** A string as it is; anything else as its JSON text, so that a message shows what was sent. */
    private static String text(JsonNode v) {
        return v.isTextual() ? v.textValue() : v.toString();
    }

    /** {@code scheme://host:port} without path, query or user; {@code null} otherwise. */
    static URI url(String text, String scheme) {
        URI uri;
        try {
            uri = new URI(text.strip());
        } catch (URISyntaxException e) {
            return null;
        }
        if (uri.getScheme() == null || !uri.getScheme().toLowerCase(Locale.ROOT).equals(scheme)
                || uri.getHost() == null || uri.getRawUserInfo() != null || uri.getRawFragment() != null
                || uri.getRawQuery() != null || (uri.getRawPath() != null && !uri.getRawPath().isEmpty()
                && !uri.getRawPath().equals("/"))) {
            return null;
        }
        return URI.create(scheme + "://" + uri.getRawAuthority());
    }

    private static String problem(String field, String value, String expected) {
        return field + " = '" + value + "': expected " + expected;
    }
}
