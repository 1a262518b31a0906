package org.jwd.admin;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * {@code GET api/config}: the configuration in force.
 *
 * @param properties every key as written, sorted, with {@link Secrets} masked
 * @param effective  the values derived from them, under the keys they come from
 * @param reload     the configuration file and its reloads; {@code null} when jwd was not started from a file
 * @param modification the modification handler's handlers and their action files; absent without any
 */
public record ConfigView(Map<String, String> properties, Effective effective, Reload reload,
                         @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Handler> modification) {
    /**
     * A handler of SAP's modification handler ({@code icm/HTTP/mod_<xx>}) and its action file as loaded: every line
     * that is neither blank nor a comment, with its number.
     *
     * @param file the action file as configured; {@code null} for a handler without one
     * @param path where it was read from; {@code null} without a file
     */
    public record Handler(String key, String prefix, String file, String path, List<Line> lines) {
    }

    /** A line of an action file. */
    public record Line(int line, String text) {
    }

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
