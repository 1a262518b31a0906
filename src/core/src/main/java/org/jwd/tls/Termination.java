package org.jwd.tls;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jwd.config.DispatcherConfig;
import org.jwd.config.KeyReader;
import org.jwd.config.ServerPorts;

/**
 * HTTPS termination: the SSL configurations jwd's HTTPS listeners present, and which listener presents which.
 * A {@code PROT=HTTPS} line presents its {@code SSLCONFIG} ({@code icm/ssl_config_<xx>}), else
 * {@code jwd.ssl_keystore}; {@code --https-port} presents {@code jwd.ssl_keystore}, else the first line's.
 *
 * @param configs     by name: {@value SslConfig#KEYSTORE} and each {@code icm/ssl_config_<xx>}
 * @param ports       each listening {@code PROT=HTTPS} line's settings, by its key ({@code icm/server_port_1})
 * @param commandLine what {@code --https-port} presents; {@code null} when no configuration could
 */
public record Termination(Map<String, SslConfig> configs, Map<String, HttpsSettings> ports, HttpsSettings commandLine) {
    public static final String CIPHERSUITES = "ssl/ciphersuites";

    public Termination {
        configs = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(configs));
        ports = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(ports));
    }

    /**
     * @param verifyClient {@code icm/HTTPS/verify_client}, for the listeners that set none of their own
     */
    static Termination read(KeyReader keys, DispatcherConfig core, int verifyClient) {
        Map<String, SslConfig> configs = new LinkedHashMap<>(SslConfigs.read(keys));
        Secret password = Secret.read(keys, TlsConfig.KEYSTORE_PASSWORD);
        Path keyStore = TlsConfig.store(keys, TlsConfig.KEYSTORE, TlsConfig.KEYSTORE_PASSWORD, password, true);
        if (keyStore != null) {
            configs.put(SslConfig.KEYSTORE, SslConfig.ofKeyStore(keyStore, password));
        }
        TlsSuites suites = keys.value(CIPHERSUITES, null, "SAP's cipher suite string", text -> suites(keys, text));
        Map<String, HttpsSettings> ports = new LinkedHashMap<>();
        for (ServerPorts.ServerPort https : core.serverPorts().of(ServerPorts.Protocol.HTTPS)) {
            SslConfig config = config(keys, https, configs, keys.raw(TlsConfig.KEYSTORE) != null);
            if (config != null) {
                ports.put(https.key(), settings(config, https.verifyClient(), verifyClient, suites));
            }
        }
        SslConfig forCommandLine = configs.getOrDefault(SslConfig.KEYSTORE, ports.isEmpty() ? null
                : ports.values().iterator().next().config());
        return new Termination(configs, ports, forCommandLine == null ? null
                : settings(forCommandLine, null, verifyClient, suites));
    }

    private static TlsSuites suites(KeyReader keys, String text) {
        try {
            return CipherSuiteString.parse(text, TlsSuites.Side.CLIENTS);
        } catch (IllegalArgumentException e) {
            keys.problemText(CIPHERSUITES, CIPHERSUITES + " = '" + text + "': " + e.getMessage());
            return null;
        }
    }

    private static SslConfig config(KeyReader keys, ServerPorts.ServerPort https, Map<String, SslConfig> configs,
                                    boolean keyStoreGiven) {
        String name = https.sslConfig();
        if (name == null) {
            if (!keyStoreGiven) {
                keys.problemText(https.key(), https + " terminates HTTPS: expected SSLCONFIG=<an icm/ssl_config_<xx>>,"
                        + " or " + TlsConfig.KEYSTORE + " and " + TlsConfig.KEYSTORE_PASSWORD + " (jwd reads no PSE:"
                        + " export it with sapgenpse export_p12)");
            }
            return configs.get(SslConfig.KEYSTORE);
        }
        SslConfig config = configs.get(name);
        // a line that is there but refused has its own problem already
        if (config == null && !SslConfigs.declaredNames(keys).contains(name)) {
            keys.problemText(https.key(), https + ": SSLCONFIG=" + name + " names no " + SslConfigs.PREFIX
                    + "<xx>: expected one of " + configs.keySet().stream().filter(n -> !n.equals(SslConfig.KEYSTORE))
                    .toList());
        }
        return config;
    }

    private static HttpsSettings settings(SslConfig config, Integer portVerify, int verifyClient, TlsSuites suites) {
        int verify = portVerify != null ? portVerify : config.verifyClient() != null ? config.verifyClient()
                : verifyClient;
        return new HttpsSettings(config, verify, config.suites() != null ? config.suites() : suites);
    }

    /** Whether jwd has anything to present: a keystore, or an HTTPS line with its configuration. */
    public boolean terminates() {
        return commandLine != null;
    }

    @Override
    public String toString() {
        return ports.isEmpty() ? String.valueOf(commandLine) : ports.toString();
    }
}
