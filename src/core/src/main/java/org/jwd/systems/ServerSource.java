package org.jwd.systems;

import java.net.URI;

/**
 * Where a {@code wdisp/system_<xx>} system's servers come from when SAP is asked for them: its message server
 * ({@code MSHOST} with {@code MSPORT}, its HTTP port, or {@code MSSPORT}, its HTTPS port), or a server list kept in a
 * file ({@code SILOC=file://<path>}). SAP Help, "wdisp/system_&lt;xx&gt;"
 * (help.sap.com/doc/683d6a1797a34730a6e005d1e8de6f22/7.4.27/en-US/1bb0fd8a12344c4ca89b7a1c5d1d7310.html).
 *
 * @param msHost    {@code MSHOST}, or {@code null} with {@code SILOC}
 * @param msPort    {@code MSPORT}, or {@code null}
 * @param msSPort   {@code MSSPORT}, or {@code null}; asked before {@code MSPORT} when both are given
 * @param serverList {@code SILOC}, a {@code file:} URI, or {@code null}
 */
public record ServerSource(String msHost, Integer msPort, Integer msSPort, URI serverList) {
    @Override
    public String toString() {
        if (serverList != null) {
            return "SILOC=" + serverList;
        }
        return "MSHOST=" + msHost + (msPort == null ? "" : ", MSPORT=" + msPort)
                + (msSPort == null ? "" : ", MSSPORT=" + msSPort);
    }
}
