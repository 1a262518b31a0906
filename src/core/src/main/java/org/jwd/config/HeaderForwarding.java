package org.jwd.config;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * What jwd tells a server about the client in request headers, under SAP's Web Dispatcher parameters where SAP has
 * one. SAP's documentation of the modification handler lists the headers these parameters set ("Profile parameters
 * may not be needed when the implementation is changed", help.sap.com, SAP NetWeaver 7.4, document
 * 48/926702aa6b17cee10000000a421937): {@code AppendHeader xforwardedfor %{REMOTE_ADDR}},
 * {@code SetHeader clientProtocol %{SERVER_PROTOCOL}}, {@code SetHeader x-sap-webdisp-ap %{SERVER_ACCESS_POINTS}},
 * {@code SetHeader clientProtocol https} and {@code SetHeader x-sap-webdisp-ap "http=80;https=443"}.
 *
 * <p>Whatever the switches, a client's own value of a header jwd owns never reaches a server unless the client is
 * a trusted proxy ({@code jwd.trusted_proxies}); the webapp's {@code proxy.OwnedHeaders} applies this.
 *
 * @param preserveHost        {@code jwd.preserve_host}: the client's {@code Host} reaches the server, as through
 *                            SAP's Web Dispatcher; {@code false}: the server's own {@code host:port}
 * @param addXForwardedFor    {@code wdisp/add_xforwardedfor_header}: the client's address in {@code X-Forwarded-For}
 * @param addClientProtocol   {@code wdisp/add_client_protocol_header}: {@code clientprotocol: http} or {@code https}
 * @param forceClientProtocol {@code wdisp/force_client_protocol_header}: {@code http} or {@code https} sent as the
 *                            client's protocol whatever it was (a TLS-terminating balancer in front), or {@code null}
 * @param addAccessPoints     {@code wdisp/handle_webdisp_ap_header}: jwd's access points in {@code x-sap-webdisp-ap}
 * @param forceAccessPoints   {@code wdisp/force_webdisp_ap_header}: the {@code x-sap-webdisp-ap} value to send
 *                            instead of jwd's own ports ({@code http=80;https=443}), or {@code null}
 * @param trustedProxies      {@code jwd.trusted_proxies}: the peers whose values of these headers are kept
 */
public record HeaderForwarding(boolean preserveHost, boolean addXForwardedFor, boolean addClientProtocol,
                               String forceClientProtocol, boolean addAccessPoints, String forceAccessPoints,
                               TrustedProxies trustedProxies) {
    public static final String PRESERVE_HOST = "jwd.preserve_host";
    public static final String ADD_XFORWARDEDFOR = "wdisp/add_xforwardedfor_header";
    public static final String ADD_CLIENT_PROTOCOL = "wdisp/add_client_protocol_header";
    public static final String FORCE_CLIENT_PROTOCOL = "wdisp/force_client_protocol_header";
    public static final String HANDLE_WEBDISP_AP = "wdisp/handle_webdisp_ap_header";
    public static final String FORCE_WEBDISP_AP = "wdisp/force_webdisp_ap_header";
    public static final String TRUSTED_PROXIES = "jwd.trusted_proxies";
    /**
     * The system property in which jwd's launcher (the server module's start report) publishes the listeners Jetty
     * bound, {@code http=8080;https=8443}: the webapp cannot see the server's connectors.
     */
    public static final String ACCESS_POINTS_PROPERTY = "jwd.access_points";

    /** SAP's defaults, and no trusted proxy. */
    public static final HeaderForwarding DEFAULTS = new HeaderForwarding(true, false, true, null, true, null,
            TrustedProxies.NONE);

    /** {@code http=80;https=443}: each protocol with a port, separated by ';' (SAP's example). */
    private static final Pattern ACCESS_POINTS = Pattern.compile(
            "(?i)https?=[1-9]\\d{0,4}(;https?=[1-9]\\d{0,4})*");

    /**
     * Reads the keys. The defaults are SAP's where SAP's documentation states them; where the documentation found
     * does not, what a production SAP landscape expects (see the README's "SAP parameters"):
     * <ul>
     *   <li>{@code wdisp/add_xforwardedfor_header}: off. SAP's guides say to activate it when the server needs the
     *       client's address, and SAP's security baseline (SAP Note 2788140) recommends {@code TRUE}: it is off
     *       unless set.</li>
     *   <li>{@code wdisp/add_client_protocol_header}: on. No SAP page found states its default; an ABAP or Java
     *       server behind a dispatcher that terminates TLS builds {@code http://} URLs without it, and SAP's guides
     *       for that case set it.</li>
     *   <li>{@code wdisp/handle_webdisp_ap_header}: on, for the same reason (no default found; SAP's 0, 1 and 2 are
     *       read as off, on, on).</li>
     * </ul>
     */
    static HeaderForwarding read(KeyReader keys) {
        return new HeaderForwarding(
                keys.bool(PRESERVE_HOST, true),
                keys.bool(ADD_XFORWARDEDFOR, false),
                keys.bool(ADD_CLIENT_PROTOCOL, true),
                keys.value(FORCE_CLIENT_PROTOCOL, null, "http or https", HeaderForwarding::protocol),
                keys.value(HANDLE_WEBDISP_AP, true, "true or false (or SAP's 0, 1, 2: 0 is off)",
                        HeaderForwarding::onOffOrLevel),
                keys.value(FORCE_WEBDISP_AP, null, "access points as SAP writes them: http=80;https=443",
                        t -> ACCESS_POINTS.matcher(t.strip()).matches() ? t.strip().toLowerCase(Locale.ROOT) : null),
                trustedProxies(keys));
    }

    private static String protocol(String text) {
        String p = text.strip().toLowerCase(Locale.ROOT);
        return p.equals("http") || p.equals("https") ? p : null;
    }

    private static Boolean onOffOrLevel(String text) {
        return text.strip().equals("2") ? Boolean.TRUE : ValueSyntax.bool(text);
    }

    /** {@code jwd.trusted_proxies}: the peers whose forwarding headers are kept and appended to. */
    private static TrustedProxies trustedProxies(KeyReader keys) {
        String value = keys.raw(TRUSTED_PROXIES);
        if (value == null || value.isBlank()) {
            return TrustedProxies.NONE;
        }
        TrustedProxies.Parsed parsed = TrustedProxies.parse(value);
        for (String bad : parsed.badEntries()) {
            keys.problemText(TRUSTED_PROXIES, TRUSTED_PROXIES + " entry '" + bad
                    + "': expected " + AddressRanges.EXPECTED);
        }
        return parsed.proxies();
    }

    /**
     * jwd's access points for {@code x-sap-webdisp-ap} and the action files' {@code %{SERVER_ACCESS_POINTS}}: the port
     * the request came to, and the other protocol's from what the launcher published in {@value #ACCESS_POINTS_PROPERTY}.
     */
    public static String accessPoints(String scheme, int localPort) {
        return accessPoints(scheme, localPort, System.getProperty(ACCESS_POINTS_PROPERTY));
    }

    /**
     * jwd's access points as SAP writes them ({@code http=8080;https=8443}): the port the request came to for its
     * protocol, and for the other the first listener the launcher published ({@code published}, {@code null} where
     * jwd runs in another container: then only the request's own).
     */
    static String accessPoints(String scheme, int localPort, String published) {
        String other = scheme.equals("http") ? "https" : "http";
        String otherPort = null;
        for (String item : published == null ? new String[0] : published.split(";")) {
            int eq = item.indexOf('=');
            if (eq > 0 && item.substring(0, eq).strip().equalsIgnoreCase(other)) {
                otherPort = item.substring(eq + 1).strip();
                break;
            }
        }
        String own = scheme + "=" + localPort;
        if (otherPort == null) {
            return own;
        }
        return scheme.equals("http") ? own + ";https=" + otherPort : "http=" + otherPort + ";" + own;
    }
}
