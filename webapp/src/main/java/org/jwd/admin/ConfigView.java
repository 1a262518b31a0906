package org.jwd.admin;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * {@code GET api/config}: the configuration in force.
 *
 * @param properties every key as written, sorted, with {@link Secrets} masked
 * @param effective  the values derived from them, under the keys they come from
 * @param reload     the configuration file and its reloads; {@code null} when jwd was not started from a file
 */
public record ConfigView(Map<String, String> properties, Effective effective, Reload reload) {
    /** The derived values, durations written as jwd reads them ({@code 5m}, {@code 330s}). */
    public record Effective(
            @JsonProperty("wdisp/load_balancing_strategy") String loadBalancingStrategy,
            @JsonProperty("SessionTableTimeout") String sessionTableTimeout,
            @JsonProperty("wdisp/HTTP/context_timeout") String contextTimeout,
            @JsonProperty("wdisp/HTTP/esid_support") boolean esidSupport,
            @JsonProperty("wdisp/HTTP/jsessionid_tab_support") boolean jsessionidTabSupport,
            @JsonProperty("is/HTTP/default_root_hdl") String defaultRootHandler,
            @JsonProperty("icf.url_prefixes") List<String> urlPrefixes,
            @JsonProperty("rdisp/autoabaptime") String autoAbapTime,
            @JsonProperty("rdisp/registry_expiry") String registryExpiry,
            String health,
            @JsonProperty("jwd.connect_timeout") String connectTimeout,
            @JsonProperty("jwd.request_timeout") String requestTimeout,
            List<String> logonGroups) {
    }

    /**
     * The configuration file and its last reload; also the answer of {@code POST api/reload}.
     *
     * @param watch          how often the file is checked, or {@code off}
     * @param outcome        the last reload's: {@code applied}, {@code unchanged} or {@code rejected}; {@code null}
     *                       before the first
     * @param trigger        what asked for it ({@code api}, {@code watch}, ...)
     * @param pendingRestart keys changed in the file that wait for a restart
     */
    public record Reload(String file, String watch, String loadedAt, String outcome, String at, String trigger,
                         List<String> errors, List<Pending> pendingRestart) {
    }

    /** A key whose new value waits for a restart: the running value and the file's, {@link Secrets} masked. */
    public record Pending(String key, String running, String file) {
    }
}
