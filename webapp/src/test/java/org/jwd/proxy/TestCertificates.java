package org.jwd.proxy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;

/**
 * Certificates for the header tests, made once with keytool (valid for a hundred years; no private keys): a root
 * CA, an intermediate CA it signed, a user's certificate the intermediate signed, and a front dispatcher's
 * certificate the root signed.
 */
final class TestCertificates {
    static final X509Certificate ROOT = parse("""
            -----BEGIN CERTIFICATE-----
            MIIBVzCB/qADAgECAghuSv3OEdUcjTAKBggqhkjOPQQDAjAXMRUwEwYDVQQDEwxU
            ZXN0IFJvb3QgQ0EwIBcNMjYxMjAzMDgwNjEzWhgPMjEyNjExMDkwODA2MTNaMBcx
            FTATBgNVBAMTDFRlc3QgUm9vdCBDQTBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IA
            BOhWXxCut4cFRbI+ylRycC8YSzJXze7HuOz9z++STizQ0ttj3GhziwQNs4gOHvBG
            6MvA9aVppmKWwOeR+fRDHzqjMjAwMB0GA1UdDgQWBBQvC8g4bpGxloEwbL4tAoeO
            4vlG0jAPBgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0gAMEUCIQCowJBRWRGA
            ShE1rbrBEwgKQJWzys71+R0Yl09JEE1kdgIgXVsKlGv+TJ1G0KdSu6rCE1W2zVKT
            qEClvtMzggU9u7E=
            -----END CERTIFICATE-----
            """);
    static final X509Certificate INTERMEDIATE = parse("""
            -----BEGIN CERTIFICATE-----
            MIIBgTCCASegAwIBAgIIKWAnEoRpka0wCgYIKoZIzj0EAwIwFzEVMBMGA1UEAxMM
            VGVzdCBSb290IENBMCAXDTI2MTIwMzA4MDYxOVoYDzIxMjYxMTA5MDgwNjE5WjAf
            MR0wGwYDVQQDExRUZXN0IEludGVybWVkaWF0ZSBDQTBZMBMGByqGSM49AgEGCCqG
            SM49AwEHA0IABCgj+P8D6ibs1HFHlh3MM888z1ZPYslTdt95b7+TpzVF41AsrB+g
            T+SuNNySfPj5HBS7bMzztjJiSBJUZ2R9YI6jUzBRMB0GA1UdDgQWBBRSFibyR/mf
            HVB4PFiZVN1Fvj+cgzAPBgNVHRMBAf8EBTADAQH/MB8GA1UdIwQYMBaAFC8LyDhu
            kbGWgTBsvi0Ch47i+UbSMAoGCCqGSM49BAMCA0gAMEUCIQDKS0lm09BaKUVChOxB
            B6OT90graEPLzrokzPQHB+7DyAIgU02MWQ8lAX4EC98kTF0o5urELOm4y905mXX5
            tT4RDJo=
            -----END CERTIFICATE-----
            """);
    /** CN=user, O=Example, issued by CN=Test Intermediate CA */
    static final X509Certificate USER = parse("""
            -----BEGIN CERTIFICATE-----
            MIIBezCCASGgAwIBAgIJAOWitRk8vCCzMAoGCCqGSM49BAMCMB8xHTAbBgNVBAMT
            FFRlc3QgSW50ZXJtZWRpYXRlIENBMCAXDTI2MTIwMzA4MDYzMVoYDzIxMjYxMTA5
            MDgwNjMxWjAhMRAwDgYDVQQKEwdFeGFtcGxlMQ0wCwYDVQQDEwR1c2VyMFkwEwYH
            KoZIzj0CAQYIKoZIzj0DAQcDQgAEqdm7MbDrUuBZfVEZhEry01AmuhOHydQEjpXx
            rtMekHTJ+fLQ7wBakGcxGyXRLjQW9ESIGPveTD3GdDRblDqxyKNCMEAwHQYDVR0O
            BBYEFL1nG5vNlRBXWyZs+Y23Sb4h9CjoMB8GA1UdIwQYMBaAFFIWJvJH+Z8dUHg8
            WJlU3UW+P5yDMAoGCCqGSM49BAMCA0gAMEUCIQCadEqQNkuzAKX8A6YqhvspOWO8
            +bgUBD/CUlkGiAVXnQIgMYs05SOpJKbBAoCh3AUrUBTh0x6TVWDG/Ox5tgbeBLw=
            -----END CERTIFICATE-----
            """);
    /** CN=front, O=Example, issued by CN=Test Root CA */
    static final X509Certificate FRONT = parse("""
            -----BEGIN CERTIFICATE-----
            MIIBczCCARmgAwIBAgIIbsuzvFuKC6cwCgYIKoZIzj0EAwIwFzEVMBMGA1UEAxMM
            VGVzdCBSb290IENBMCAXDTI2MTIwMzA4MDYzNFoYDzIxMjYxMTA5MDgwNjM0WjAi
            MRAwDgYDVQQKEwdFeGFtcGxlMQ4wDAYDVQQDEwVmcm9udDBZMBMGByqGSM49AgEG
            CCqGSM49AwEHA0IABHNqA7d38AN+borHz2eoPZgl78IyWu+y7fQAv8wHqI65z7iN
            nWTRVaR6Ed9As7O2wmAy/gHoxf2pW/1YCmF2I0mjQjBAMB0GA1UdDgQWBBSt+nos
            jPtcWOka2dvuMgqC1ZS6cjAfBgNVHSMEGDAWgBQvC8g4bpGxloEwbL4tAoeO4vlG
            0jAKBggqhkjOPQQDAgNIADBFAiEAqzob/3V/A0aduIePhl5jLJyvGEGq3KakwTFP
            GlKAp+gCIHeX6IShpZ0kLptpiYWU1y9AsVNRZVQk+Dai3VsQH42G
            -----END CERTIFICATE-----
            """);

    private TestCertificates() {
    }

    private static X509Certificate parse(String pem) {
        try {
            return (X509Certificate) CertificateFactory.getInstance("X.509")
                    .generateCertificate(new ByteArrayInputStream(pem.strip().getBytes(StandardCharsets.US_ASCII)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
