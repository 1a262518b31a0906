package org.jwd.admin;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

import org.jwd.config.ConfigException;
import org.jwd.config.DispatcherConfig;
import org.jwd.config.KeyReader;
import org.jwd.config.LogonGroupConfig;
import org.jwd.config.ServerConfig;
import org.jwd.config.ServerSection;
import org.jwd.runtime.SystemConfigs;
import org.jwd.systems.SystemEntry;

/**
 * Reads the body of {@code PUT /jwd/admin/api/servers/<id>}, a server's report of itself, into the
 * {@link ServerConfig} a {@code server.<id>.*} block would give: read by the same {@link ServerSection}, with the
 * same rules and defaults:
 *
 * <pre>
 * {"url": "http://10.0.0.7:50000", "type": "j2ee", "capacity": 2, "logon_groups": ["PORTAL"]}
 * </pre>
 *
 * Optional: {@code https_url}, {@code lb_id}, {@code name}, {@code route}, {@code health_path}; {@code url} may be
 * left out when {@code https_url} is given (a server with only an HTTPS port); logon groups may also be one
 * comma-separated string. Unknown fields are refused, as unknown keys are in the configuration file.
 *
 * <p>With {@code wdisp/system_<xx>} entries every server belongs to a system, so a report names its system by SID
 * ({@code "system": "ERP"}): required then, one of the configured SIDs, and the logon groups are that system's.
 * Without entries a {@code system} field is refused: there is only the one implicit system, and a server that
 * believes otherwise is registering with the wrong jwd.
 * The body comes as Jackson's tree, read with {@link AdminJson#readUntrusted}'s limits, rather than bound to a
 * record: binding stops at the first bad field, and an operator should see every problem at once.
 */
public final class Registration {
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9_-]+");

    /** The field naming the server's system. */
    static final String SYSTEM = "system";

    /**
     * What a report says: the server, and the SID of the system it joins.
     *
     * @param system the SID, or {@code null} without {@code wdisp/system_<xx>} entries
     */
    public record Reported(ServerConfig server, String system) {
    }

    private Registration() {
    }

    /** Whether {@code id} could name a server (as in {@code server.<id>.*}). */
    public static boolean validId(String id) {
        return id != null && id.length() <= 100 && ID.matcher(id).matches();
    }

    /**
     * @param config the configuration in force: logon groups must be defined there (in the server's system)
     * @throws ConfigException one message per problem, naming the field, the value and what is expected
     */
    public static Reported parse(String id, JsonNode body, DispatcherConfig config) throws ConfigException {
        if (!validId(id)) {
            throw new ConfigException("id = '" + id + "': expected a server id of letters, digits, '_' or '-'");
        }
        if (!body.isObject()) {
            throw new ConfigException("body = '" + body + "': expected a JSON object");
        }
        KeyReader fields = KeyReader.ofFields(fields(body));
        SystemConfigs systems = config.sections().find(SystemConfigs.class).orElse(null);
        String system = system(fields, systems);
        ServerConfig server = ServerSection.read(fields, "", id, logonGroups(config, systems, system));
        // unknown fields are refused, as unknown keys are in the configuration file
        fields.checkEveryKeyRead();
        return new Reported(server, system);
    }

    /** The {@code system} field: a configured SID with systems (required), absent without; problems reported. */
    private static String system(KeyReader fields, SystemConfigs systems) {
        if (systems == null) {
            // read only when given, so that without systems the known fields stay what they were
            if (fields.values().containsKey(SYSTEM) && fields.raw(SYSTEM) != null) {
                fields.problem(SYSTEM, "no system field: this jwd has no " + SystemEntry.KEY_PREFIX
                        + "<xx> entries, so every server belongs to its one implicit system");
            }
            return null;
        }
        String expected = "the SID of the server's system: one of " + String.join(", ", systems.configs().keySet());
        String system = fields.raw(SYSTEM);
        if (system == null) {
            fields.missing(SYSTEM, expected);
        } else if (!systems.configs().containsKey(system)) {
            fields.problem(SYSTEM, expected);
            return null;
        }
        return system;
    }

    /**
     * The logon groups a registration may name: its system's; with systems but no valid one, every system's, so
     * that only a group no system defines is reported besides the system.
     */
    private static List<String> logonGroups(DispatcherConfig config, SystemConfigs systems, String system) {
        List<DispatcherConfig> scope = systems == null ? List.of(config)
                : system == null ? List.copyOf(systems.configs().values()) : List.of(systems.configs().get(system));
        return scope.stream().flatMap(c -> c.logonGroups().stream()).map(LogonGroupConfig::name).distinct()
                .toList();
    }

    /**
     * The body's fields as the text a {@code server.<id>.*} key would hold; JSON's {@code null} as a field left out.
     * A number is its JSON text, an integral one (2.0) as the file's "2"; an array of logon groups is joined with
     * commas, the file's list.
     */
    private static Map<String, String> fields(JsonNode body) {
        Map<String, String> fields = new LinkedHashMap<>();
        body.fields().forEachRemaining(field -> {
            JsonNode v = field.getValue();
            if (v.isArray()) {
                List<String> items = new ArrayList<>();
                v.forEach(item -> items.add(text(item)));
                fields.put(field.getKey(), String.join(",", items));
            } else if (!v.isNull()) {
                fields.put(field.getKey(), text(v));
            }
        });
        return fields;
    }

    /** A string as it is; an integral number as an integer; anything else as its JSON text. */
    private static String text(JsonNode v) {
        if (v.isNumber() && v.canConvertToExactIntegral()) {
            return v.bigIntegerValue().toString();
        }
        return v.isTextual() ? v.textValue() : v.toString();
    }
}
