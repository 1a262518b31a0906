package org.jwd.accesslog;

/**
 * The transaction id of SAP's passport ({@code SAP-PASSPORT}): the header SAP's end-to-end tracing sends along a
 * business transaction (SAPUI5, the browser plug-in, SAP servers calling each other), which a dispatcher passes on
 * unchanged. Its value is a binary structure written in hex; version 3, as SAPUI5 writes it
 * ({@code sap/ui/performance/trace/Passport.js}) and SAP's {@code @sap/e2e-trace} reads it, is
 *
 * <pre>
 * bytes   0-3    "*TH*" (2A54482A)            eye catcher, again at the end
 * byte    4      3                            version
 * bytes   5-6    length (230, or more with variable parts)
 * bytes   7-8    trace flags
 * bytes   9-40   component name               32 characters, blank-padded
 * bytes  43-74   user; 75-114 action; 117-148 previous component
 * bytes 149-180  transaction id (TransID)     32 characters: a GUID in hex digits
 * bytes 186-201  root context id; 202-217 connection id; 218-221 connection counter
 * </pre>
 *
 * Only the transaction id is read: the one value that names the business transaction in SAP's traces (ST05,
 * the SAP Solution Manager's end-to-end analysis), so that an access-log line or a span can be found from it.
 */
public final class SapPassport {
    /** The header that carries it. */
    public static final String HEADER = "SAP-PASSPORT";
    private static final String EYE_CATCHER = "*TH*";
    private static final int VERSION = 3;
    private static final int TRANSACTION_ID = 149;
    private static final int TRANSACTION_ID_LENGTH = 32;
    private static final int MIN_LENGTH = TRANSACTION_ID + TRANSACTION_ID_LENGTH;

    private SapPassport() {
    }

    /**
     * The transaction id of a passport header's value, without its padding; {@code null} for no header, or for one
     * that is no version-3 passport (not hex, too short, no eye catcher, no printable transaction id): a client may
     * send anything.
     */
    public static String transactionId(String header) {
        if (header == null) {
            return null;
        }
        String hex = header.strip();
        if (hex.length() % 2 != 0 || hex.length() < 2 * MIN_LENGTH) {
            return null;
        }
        for (int i = 0; i < EYE_CATCHER.length(); i++) {
            if (octet(hex, i) != EYE_CATCHER.charAt(i)) {
                return null;
            }
        }
        if (octet(hex, 4) != VERSION || (octet(hex, 5) << 8 | octet(hex, 6)) < MIN_LENGTH) {
            return null;
        }
        StringBuilder id = new StringBuilder(TRANSACTION_ID_LENGTH);
        for (int i = TRANSACTION_ID; i < MIN_LENGTH; i++) {
            int c = octet(hex, i);
            if (c < 0 || c != ' ' && c != 0 && (c < 0x21 || c > 0x7e)) {
                return null;
            }
            id.append((char) c);
        }
        String trimmed = id.toString().replace('\0', ' ').strip();
        return trimmed.isEmpty() || trimmed.indexOf(' ') >= 0 ? null : trimmed;
    }

    /** The byte at {@code index} of the structure, or -1 where the hex is not hex. */
    private static int octet(String hex, int index) {
        int high = Character.digit(hex.charAt(2 * index), 16);
        int low = Character.digit(hex.charAt(2 * index + 1), 16);
        return high < 0 || low < 0 ? -1 : high << 4 | low;
    }
}
