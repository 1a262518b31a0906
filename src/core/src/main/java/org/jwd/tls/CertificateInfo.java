package org.jwd.tls;

import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What an operator needs to know of a certificate jwd presents: whose it is, for which names, until when.
 *
 * @param alias    its entry's name in the key store
 * @param subject  the subject's distinguished name
 * @param issuer   the issuer's distinguished name
 * @param names    the DNS names and IP addresses of its subject alternative names, as a client's SNI name is matched
 * @param notAfter when it expires
 */
public record CertificateInfo(String alias, String subject, String issuer, List<String> names, Instant notAfter) {
    /** How long before it expires that jwd warns. */
    public static final Duration WARN_BEFORE = Duration.ofDays(30);

    public CertificateInfo {
        names = List.copyOf(names);
    }

    static CertificateInfo of(String alias, X509Certificate certificate) {
        return new CertificateInfo(alias, certificate.getSubjectX500Principal().getName(),
                certificate.getIssuerX500Principal().getName(), names(certificate),
                certificate.getNotAfter().toInstant());
    }

    /** Whether it expires within {@link #WARN_BEFORE} of {@code now}, or has expired. */
    public boolean expiresSoon(Instant now) {
        return !notAfter.isAfter(now.plus(WARN_BEFORE));
    }

    private static List<String> names(X509Certificate certificate) {
        List<String> names = new ArrayList<>();
        try {
            if (certificate.getSubjectAlternativeNames() != null) {
                for (List<?> name : certificate.getSubjectAlternativeNames()) {
                    // 2: dNSName, 7: iPAddress (RFC 5280)
                    if (name.size() == 2 && (Integer.valueOf(2).equals(name.get(0))
                            || Integer.valueOf(7).equals(name.get(0)))) {
                        names.add(String.valueOf(name.get(1)));
                    }
                }
            }
        } catch (CertificateParsingException e) {
            // a certificate whose alternative names do not parse is shown with none
        }
        return names;
    }
}
