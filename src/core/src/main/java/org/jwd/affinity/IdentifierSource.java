package org.jwd.affinity;

/**
 * Which of a request's session identifiers placed it on its server, by the name SAP gives it: what a trace shows
 * beside the reason ({@code route suffix} and {@code JSESSIONID server name} are both the JSESSIONID's doing).
 */
public enum IdentifierSource {
    /** the ESID ({@code sap-ext-sid}), through the session ID table */
    ESID("sap-ext-sid"),
    /** the ABAP session id ({@code sap-contextid}), which names its server */
    CONTEXT_ID("sap-contextid"),
    /** a load balancing cookie ({@code saplb_<group>}, {@code saplb_*}) */
    SAPLB("saplb"),
    /** the J2EE session id: the server it names, its route suffix, or the session tables */
    JSESSIONID("JSESSIONID");

    private final String sapName;

    IdentifierSource(String sapName) {
        this.sapName = sapName;
    }

    /** {@code sap-ext-sid}, {@code sap-contextid}, {@code saplb}, {@code JSESSIONID} */
    @Override
    public String toString() {
        return sapName;
    }
}
