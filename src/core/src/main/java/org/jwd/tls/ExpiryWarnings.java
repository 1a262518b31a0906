package org.jwd.tls;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which certificates to warn of: those that expire within {@link CertificateInfo#WARN_BEFORE}, or have expired, once
 * when first seen so and then once a day while they stay so (a renewed certificate, another expiry, is new).
 *
 * <pre>
 *   expires in 40 days: nothing;  in 29 days: a warning;  an hour later: nothing;  a day later: a warning
 * </pre>
 */
final class ExpiryWarnings {
    static final Duration AGAIN_AFTER = Duration.ofDays(1);

    private final Map<String, Instant> warned = new HashMap<>();

    /** The warnings due at {@code now} for what {@code listener} presents, each remembered as given. */
    List<String> due(Instant now, String listener, List<CertificateInfo> certificates, Object files) {
        List<String> due = new ArrayList<>();
        for (CertificateInfo c : certificates) {
            String key = listener + "|" + c.alias() + "|" + c.notAfter();
            Instant last = warned.get(key);
            if (c.expiresSoon(now) && (last == null || !now.isBefore(last.plus(AGAIN_AFTER)))) {
                warned.put(key, now);
                due.add(listener + ": the certificate " + c.subject() + " (" + c.alias() + ") " + (c.notAfter()
                        .isAfter(now) ? "expires in " + ChronoUnit.DAYS.between(now, c.notAfter()) + " days, on "
                        : "expired on ") + c.notAfter() + ": renew " + files);
            }
        }
        return due;
    }
}
