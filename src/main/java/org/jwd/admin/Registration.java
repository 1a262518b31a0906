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
 * The body comes as Jackson's tree, read with {@link AdminJson#readUntrusted}'s limits, rather than bound to a
 * record: binding stops at the first bad field, and an operator should see every problem at once.
 */
public final class Registration {
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9_-]+");

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
        if (!validId(id)) {
            throw new ConfigException("id = '" + id + "': expected a server id of letters, digits, '_' or '-'");
        }
        if (!body.isObject()) {
            throw new ConfigException("body = '" + body + "': expected a JSON object");
        }
        KeyReader fields = KeyReader.ofFields(fields(body));
        ServerConfig server = ServerSection.read(fields, "", id,
                config.logonGroups().stream().map(LogonGroupConfig::name).toList());
        // unknown fields are refused, as unknown keys are in the configuration file
        fields.checkEveryKeyRead();
        return server;
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
