package org.jwd.tls;

import java.security.Principal;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import javax.net.ssl.SSLSession;

import org.eclipse.jetty.util.ssl.SniX509ExtendedKeyManager;
import org.eclipse.jetty.util.ssl.X509;

/**
 * Which key a listener presents, by the name the client asks for (SNI): the key whose certificate names it (a name
 * before a wildcard), else the default key, the first file's first (SAP: {@code CRED} before {@code SNI_CREDS}).
 * Jetty's own choice falls back to any key the JDK picks; a client that names no host, or one no certificate names,
 * gets the default here, as from SAP's ICM.
 *
 * <pre>
 *   keys: portal (CRED, CN=portal.example), erp (SNI_CREDS, DNS erp.example, *.erp.example)
 *   SNI erp.example -> erp;  SNI a.erp.example -> erp;  SNI other.example -> portal;  no SNI -> portal
 * </pre>
 */
final class SniChoice implements SniX509ExtendedKeyManager.SniSelector {
    private final List<X509> keys;
    private final Set<String> defaults;

    /**
     * @param keys     the certificates of the aliases that hold a key (a trusted certificate alone is never chosen)
     * @param defaults the aliases presented when no certificate names the host
     */
    SniChoice(Map<String, X509Certificate> keys, Set<String> defaults) {
        List<X509> x509 = new ArrayList<>();
        keys.forEach((alias, certificate) -> x509.add(new X509(alias, certificate)));
        this.keys = List.copyOf(x509);
        this.defaults = Set.copyOf(defaults);
    }

    @Override
    public String sniSelect(String keyType, Principal[] issuers, SSLSession session, String sniHost,
                            Collection<X509> certificates) {
        if (sniHost != null) {
            Set<String> aliases = keys.stream().map(X509::getAlias).collect(Collectors.toSet());
            String named = certificates.stream().filter(c -> aliases.contains(c.getAlias()) && c.matches(sniHost))
                    .min(Comparator.comparingInt(c -> c.getWilds().size())).map(X509::getAlias).orElse(null);
            if (named != null) {
                return named;
            }
            if (keys.stream().anyMatch(c -> c.matches(sniHost))) {
                // a key of another type names the host: the JDK asks again for that type
                return null;
            }
        }
        return certificates.stream().map(X509::getAlias).filter(defaults::contains).findFirst()
                .orElse(SniX509ExtendedKeyManager.SniSelector.DELEGATE);
    }
}
