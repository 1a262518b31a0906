package org.jwd.admin;

import static org.jwd.admin.AdminResponses.sendJson;
import static org.jwd.admin.AdminResponses.sendText;

import java.io.IOException;
import java.time.Duration;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.jwd.config.AdminConfig;
import org.jwd.config.AdminEntry;
import org.jwd.config.AdminRole;
import org.jwd.config.AdminUser;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a request to the administration passes before it is served, in order:
 * <ol>
 *   <li>a listener an {@code icm/HTTP/admin_<xx>} entry of its prefix names ({@code PORT}, {@code HOST}), else 404,
 *       as if there were no administration there;</li>
 *   <li>a client its {@code CLIENTHOST} allows, else 403;</li>
 *   <li>{@code <PREFIX>/metrics} with {@code admin.metrics_anonymous}: served without credentials;</li>
 *   <li>users configured, else 404 at the default prefix, 401 at an {@code icm/HTTP/admin_<xx>}'s (SAP's admin
 *       line asks for credentials whether or not a user can log in); an address in back-off: 429 with
 *       {@code Retry-After};</li>
 *   <li>HTTP Basic credentials of a user, else 401 (wrong ones count towards the back-off);</li>
 *   <li>for anything but a read, role {@code admin}, else 403 naming the user's role.</li>
 * </ol>
 */
final class AdminGate {
    private static final Logger LOG = LoggerFactory.getLogger(AdminGate.class);
    private static final String REALM = "Basic realm=\"jwd administration\", charset=\"UTF-8\"";

    private final AdminConfig admin;
    private final AdminCredentials credentials;
    private final LoginBackOff backOff;

    /** Who passed: the user, or {@code null} for the anonymous metrics. */
    record Pass(AdminEntry entry, AdminUser user) {
        /** {@code user from address}, as every action's log line names who acted. */
        String who(HttpServletRequest request) {
            return (user == null ? "anonymous" : user.name()) + " from " + request.getRemoteAddr();
        }
    }

    AdminGate(AdminConfig admin, LoginBackOff backOff) {
        this.admin = admin;
        this.credentials = new AdminCredentials(admin.users());
        this.backOff = backOff;
    }

    /** The request's pass, or {@code null} when it was answered here (refused). */
    Pass admit(HttpServletRequest request, HttpServletResponse response) throws IOException {
        AdminEntry entry = admin.entry(request.getServletPath(), request.getLocalAddr(), request.getLocalPort());
        if (entry == null) {
            sendText(response, 404, "Not Found");
            return null;
        }
        String address = request.getRemoteAddr();
        if (!entry.servesClient(address)) {
            LOG.debug("jwd: administration request from {} refused: not in CLIENTHOST of {}", address, entry.key());
            sendText(response, 403, "jwd: the administration does not answer " + address + " (CLIENTHOST of "
                    + entry.key() + ")");
            return null;
        }
        AdminResponses.securityHeaders(response);
        if (admin.anonymousMetrics() && "/metrics".equals(request.getPathInfo())) {
            return new Pass(entry, null);
        }
        if (!admin.enabled() && entry.number() < 0) {
            sendText(response, 404, "Not Found");
            return null;
        }
        if (!admin.enabled()) {
            response.setHeader("WWW-Authenticate", REALM);
            sendText(response, 401, "jwd: no user can log in here yet: write admin.user and admin.password_hash"
                    + " (bin/jwd hash-password makes the hash)");
            return null;
        }
        AdminUser user = authenticated(request, response, address);
        if (user == null) {
            return null;
        }
        if (user.role() != AdminRole.ADMIN && !isRead(request)) {
            sendJson(response, AdminApi.Answer.error(403, "jwd: user " + user.name() + " has role "
                    + user.role().key() + ": " + request.getMethod() + " " + request.getPathInfo()
                    + " needs role admin"));
            return null;
        }
        return new Pass(entry, user);
    }

    /** The user of the request's credentials; {@code null} once a refusal (429, 401) is answered. */
    private AdminUser authenticated(HttpServletRequest request, HttpServletResponse response, String address)
            throws IOException {
        Duration wait = backOff.retryAfter(address);
        if (!wait.isZero()) {
            response.setHeader("Retry-After", Long.toString(Math.max(1, (wait.toMillis() + 999) / 1000)));
            sendText(response, 429, "jwd: too many wrong credentials from " + address + ": try again later");
            return null;
        }
        String authorization = request.getHeader("Authorization");
        AdminUser user = credentials.authenticated(authorization);
        if (user == null) {
            if (authorization != null) {
                Duration blocked = backOff.failed(address);
                if (!blocked.isZero()) {
                    LOG.warn("jwd: wrong admin credentials from {} again: refused for {} s", address,
                            blocked.toSeconds());
                }
            }
            response.setHeader("WWW-Authenticate", REALM);
            sendText(response, 401, "jwd: the administration interface needs the credentials of one of its users");
            return null;
        }
        backOff.succeeded(address);
        return user;
    }

    /** What role {@code monitor} may do: read, and look a session up (a read that carries its value in a body). */
    private static boolean isRead(HttpServletRequest request) {
        String method = request.getMethod();
        return method.equals("GET") || method.equals("HEAD")
                || method.equals("POST") && "/api/session".equals(request.getPathInfo());
    }
}
