package org.jwd.config;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * A logon group as configured by the {@code logon_group.<G>.*} keys, or SAP's implicit {@code SPACE}.
 *
 * @param type              {@code B} best quality, {@code R} round robin, {@code W} weighted round robin: the
 *                          message server's view that the admin page and {@code lgtst} report
 * @param fallback          with no active member, fall back to the internal group instead of answering 503
 * @param extRfc            SAP's "Ext. RFC-enable"; under {@link HttpBalancing#QUALITY} every dispatch goes to
 *                          the favorite when false
 * @param refresh           how often the group's view (qualities, members) is refreshed
 * @param refreshDispatches refresh also after this many dispatches, whichever comes first
 * @param httpBalancing     what chooses the member for the group's HTTP requests
 * @param everyServer       SAP's implicit {@code SPACE}: every server is a member, whatever its
 *                          {@code server.<id>.logon_groups}
 */
public record LogonGroupConfig(String name, List<String> urlPrefixes, char type, boolean fallback,
                               boolean extRfc, Duration refresh, int refreshDispatches,
                               HttpBalancing httpBalancing, boolean everyServer) {
    /** SAP's default logon group: all active servers, when the configuration defines no group of that name. */
    public static final String SPACE = "SPACE";
    public static final char DEFAULT_TYPE = 'B';
    public static final Duration DEFAULT_REFRESH = Duration.ofSeconds(120);
    public static final int DEFAULT_REFRESH_DISPATCHES = 200;

    public LogonGroupConfig {
        urlPrefixes = List.copyOf(urlPrefixes);
    }

    /**
     * What balances a logon group's HTTP requests. SAP's Web Dispatcher balances within the logon group by
     * capacity with {@code wdisp/load_balancing_strategy}; the SMLG types are the message server's logon
     * balancing for SAP GUI and RFC clients.
     */
    public enum HttpBalancing {
        /** {@code wdisp/load_balancing_strategy} over the members, by capacity (the default) */
        STRATEGY,
        /** the group's type {@code B}, {@code R} or {@code W}, as the message server hands out logons */
        QUALITY;

        /** {@code strategy} or {@code quality}, as written in the configuration. */
        public String key() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * {@code SPACE} as SAP's message server has it when no one defined it: every server, no URL prefix (so it
     * selects no URL), type {@code B}, and otherwise the defaults of a configured group.
     */
    public static LogonGroupConfig space() {
        return new LogonGroupConfig(SPACE, List.of(), DEFAULT_TYPE, false, true, DEFAULT_REFRESH,
                DEFAULT_REFRESH_DISPATCHES, HttpBalancing.STRATEGY, true);
    }

    /** Whether this server is a member: it names the group in {@code server.<id>.logon_groups}, or it is SPACE. */
    public boolean includes(ServerConfig server) {
        return everyServer || server.logonGroups().contains(name);
    }

    @Override
    public String toString() {
        return "logon group " + name + " (type " + type + ", prefixes " + urlPrefixes
                + (httpBalancing == HttpBalancing.QUALITY ? ", HTTP by quality" : "")
                + (everyServer ? ", every server" : "") + ")";
    }
}
