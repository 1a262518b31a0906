package org.jwd.tls;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jwd.config.Durations;
import org.jwd.config.KeyReader;

/**
 * Reads SAP's {@code icm/ssl_config_<xx>} lines ("icm/ssl_config_&lt;xx&gt;", help.sap.com):
 * {@code [ID=<name>,] CRED=<file> [, SNI_CREDS=<file>;<file>, VCLIENT=0|1|2, CIPHERS=<suites>, CACHESIZE=<n>,
 * LIFETIME=<seconds>]}, and jwd's {@code PIN}: where the files' password is kept, {@code ${file:PATH}} or
 * {@code ${env:NAME}}, never the password itself. {@code CRED} and the {@code SNI_CREDS} files are PKCS#12 files (a
 * PSE exported with {@code sapgenpse export_p12}), opened with the one password. A port names a line by its
 * {@code ID}, else as {@code ssl_config_<xx>}.
 *
 * <pre>
 *   icm/ssl_config_1 = CRED=sec/portal.p12, SNI_CREDS=sec/erp.p12;sec/bw.p12, VCLIENT=1, PIN=${file:sec/pin}
 *   icm/server_port_1 = PROT=HTTPS, PORT=443, SSLCONFIG=ssl_config_1
 * </pre>
 */
final class SslConfigs {
    static final String PREFIX = "icm/ssl_config_";
    private static final Pattern KEY = Pattern.compile(Pattern.quote(PREFIX) + "(\\d{1,2})");
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9_-]+");
    private static final Pattern DECLARED_ID = Pattern.compile("(?i)(?:^|,)\\s*ID\\s*=\\s*([^,]+)");
    private static final Set<String> KNOWN = Set.of("ID", "CRED", "SNI_CREDS", "VCLIENT", "CIPHERS", "CACHESIZE",
            "LIFETIME", "PIN");
    static final String PIN_EXPECTED = "PIN=${file:PATH} or PIN=${env:NAME}: where the password of CRED and"
            + " SNI_CREDS is kept (a password never stands in the profile)";

    private SslConfigs() {
    }

    /** Every line, by the name a port gives it; problems go to {@code keys}, naming the line. */
    static Map<String, SslConfig> read(KeyReader keys) {
        Map<Integer, String> byIndex = new TreeMap<>();
        keys.values().keySet().forEach(key -> {
            Matcher m = KEY.matcher(key);
            if (m.matches()) {
                byIndex.put(Integer.parseInt(m.group(1)), key);
            }
        });
        Map<String, SslConfig> configs = new LinkedHashMap<>();
        for (String key : byIndex.values()) {
            SslConfig config = line(keys, key);
            if (config != null && configs.putIfAbsent(config.name(), config) != null) {
                keys.problemText(key, key + ": ID=" + config.name() + " is the name of " + configs.get(config.name())
                        .credentials().key() + " already: expected a name of its own");
            }
        }
        return configs;
    }

    /** The names every line declares, whether or not it is valid. */
    static Set<String> declaredNames(KeyReader keys) {
        Set<String> names = new java.util.HashSet<>();
        keys.values().forEach((key, value) -> {
            Matcher m = KEY.matcher(key);
            if (m.matches()) {
                Matcher id = DECLARED_ID.matcher(value);
                names.add(id.find() ? id.group(1).strip() : key.substring("icm/".length()));
            }
        });
        return names;
    }

    private static SslConfig line(KeyReader keys, String key) {
        String value = keys.raw(key);
        Map<String, String> sub = new LinkedHashMap<>();
        List<String> wrong = new ArrayList<>();
        for (String part : value.strip().split("\\s*,\\s*")) {
            int eq = part.indexOf('=');
            String name = eq < 0 ? part.strip() : part.substring(0, eq).strip().toUpperCase(Locale.ROOT);
            if (eq < 0 || !KNOWN.contains(name)) {
                wrong.add((eq < 0 ? "'" + part + "' is not NAME=value" : name + " is no sub-parameter jwd knows")
                        + ": expected " + String.join(", ", new java.util.TreeSet<>(KNOWN)));
            } else if (sub.put(name, part.substring(eq + 1).strip()) != null) {
                wrong.add(name + " is given twice");
            }
        }
        String name = sub.getOrDefault("ID", key.substring("icm/".length()));
        if (!ID.matcher(name).matches()) {
            wrong.add("ID=" + name + ": expected letters, digits, '_' or '-'");
        }
        Integer verify = verifyClient(sub.get("VCLIENT"), wrong);
        TlsSuites suites = suites(sub.get("CIPHERS"), wrong);
        int cacheSize = number("CACHESIZE", sub.get("CACHESIZE"), wrong);
        Duration lifetime = seconds(sub.get("LIFETIME"), wrong);
        Secret pin = pin(keys, sub.get("PIN"), wrong);
        List<Path> files = files(keys, sub, wrong);
        if (!wrong.isEmpty()) {
            keys.problemText(key, key + " = '" + shown(value, sub) + "': " + String.join("; ", wrong));
            return null;
        }
        Credentials credentials = Credentials.check(keys, key, files, pin);
        return credentials == null ? null : new SslConfig(name, credentials, verify, suites, cacheSize, lifetime);
    }

    private static List<Path> files(KeyReader keys, Map<String, String> sub, List<String> wrong) {
        List<Path> files = new ArrayList<>();
        String cred = sub.get("CRED");
        if (cred == null || cred.isEmpty()) {
            wrong.add("CRED is missing: expected CRED=<file>, a PKCS#12 file (sapgenpse export_p12 -p <PSE> <file>)");
            return files;
        }
        files.add(keys.directory().resolve(cred).normalize());
        String sni = sub.get("SNI_CREDS");
        if (sni != null) {
            for (String file : sni.split(";")) {
                if (!file.isBlank()) {
                    files.add(keys.directory().resolve(file.strip()).normalize());
                }
            }
        }
        files.stream().filter(f -> f.toString().toLowerCase(Locale.ROOT).endsWith(".pse")).findFirst().ifPresent(f ->
                wrong.add(f.getFileName() + " is a PSE, which jwd does not read: expected the PKCS#12 file"
                        + " sapgenpse export_p12 -p " + f.getFileName() + " makes of it"));
        return files;
    }

    private static Secret pin(KeyReader keys, String text, List<String> wrong) {
        if (text == null) {
            wrong.add("PIN is missing: expected " + PIN_EXPECTED);
            return null;
        }
        Secret pin = Secret.of(text, keys.directory());
        if (!pin.isReference()) {
            wrong.add("PIN holds a password: expected " + PIN_EXPECTED);
            return null;
        }
        try {
            pin.value();
        } catch (IllegalArgumentException e) {
            wrong.add("PIN: " + e.getMessage());
        }
        return pin;
    }

    /** The line as messages quote it: a password given as PIN never shown. */
    private static String shown(String value, Map<String, String> sub) {
        String pin = sub.get("PIN");
        return pin == null || Secret.of(pin, Path.of("")).isReference() ? value
                : value.replace(pin, "(hidden)");
    }

    private static Integer verifyClient(String text, List<String> wrong) {
        if (text == null) {
            return null;
        }
        if (!text.matches("[012]")) {
            wrong.add("VCLIENT=" + text + ": expected 0 (no client certificate asked for), 1 (asked for) or 2"
                    + " (required)");
            return null;
        }
        return Integer.parseInt(text);
    }

    private static TlsSuites suites(String text, List<String> wrong) {
        try {
            return text == null ? null : CipherSuiteString.parse(text, TlsSuites.Side.CLIENTS);
        } catch (IllegalArgumentException e) {
            wrong.add("CIPHERS=" + text + ": " + e.getMessage());
            return null;
        }
    }

    private static int number(String name, String text, List<String> wrong) {
        if (text == null) {
            return -1;
        }
        if (!text.matches("\\d{1,9}")) {
            wrong.add(name + "=" + text + ": expected a number of entries (0: none kept)");
            return -1;
        }
        return Integer.parseInt(text);
    }

    private static Duration seconds(String text, List<String> wrong) {
        if (text == null) {
            return null;
        }
        try {
            return Durations.parseSeconds(text);
        } catch (IllegalArgumentException e) {
            wrong.add("LIFETIME=" + text + ": expected seconds, or a number with a unit");
            return null;
        }
    }
}
