package org.jwd.discovery;

/**
 * Answers of SAP's lists as SAP's pages show them, the pages cited: what the parsers' tests are tables of. Real
 * output is CRLF and tab-separated; {@link #lf} and {@link #spaces} give the other forms a stand-in or a file may
 * have.
 */
final class SapExamples {
    /** SAP Help, "Application Server List" (the format of the server list, wdisp/server_info_location). */
    static final String SERVER_LIST_PAGE =
            "help.sap.com/saphelp_crm60/helpdata/en/1f/63af32f15e7d479227a9528c5def2a/content.htm";
    /** SAP Help, "SAP Application Server List Retrieval Specification" (capacities separated by stacks). */
    static final String RETRIEVAL_PAGE =
            "help.sap.com/saphelp_scm70/helpdata/ru/67/f2a88355de4690a429a25ef83c89b2/content.htm";
    /** SAP Help, "Server Groups in the Internet Communication Framework" (icr_urlprefix, icr_groups). */
    static final String ICF_PAGE = "help.sap.com/saphelp_snc700_ehp01/helpdata/en/48/99cd9e7f020e27e10000000a421937/content.htm";
    /** SAP Help, Workload Distribution, "Configuring the SAP Web Dispatcher" (icrgroups.txt, urlinfo.txt). */
    static final String WORKLOAD_PAGE = "help.sap.com/saphelp_sm71_sp13/helpdata/en/87/252c4142aef623e10000000a155106/content.htm";

    /** Two ABAP instances (DIAG with LB=, HTTP, HTTPS twice with VHOST=0), one Java dispatcher J2EE<cluster id>. */
    static final String SERVER_LIST = "version 1.2\r\n"
            + "ls0042_ERP_00\r\n"
            + "DIAG\tls0042.example.com\t3200\tLB=8\r\n"
            + "RFC\tls0042.example.com\t3300\t\r\n"
            + "HTTP\tls0042.example.com\t8000\t\r\n"
            + "HTTPS\tls0042.example.com\t44300\t\r\n"
            + "HTTPS\tls0042.example.com\t44300\tVHOST=0\r\n"
            + "\r\n"
            + "ls0043_ERP_01\r\n"
            + "DIAG\tls0043.example.com\t3201\tLB=4\r\n"
            + "HTTP\tls0043.example.com\t8001\t\r\n"
            + "\r\n"
            + "J2EE6906720\r\n"
            + "J2EE\tls0044.example.com\t50000\tLB=3\r\n"
            + "J2EES\tls0044.example.com\t50001\t\r\n"
            + "P4\tls0044.example.com\t50004\t\r\n";

    /** A dual-stack instance: an ABAP capacity and a Java capacity (the retrieval specification). */
    static final String DUAL_STACK = "version 1.2\r\n"
            + "ls0050_PI1_00\r\n"
            + "DIAG\tls0050\t3200\tLB=10\r\n"
            + "HTTP\tls0050\t8000\t\r\n"
            + "J2EE\tls0050\t50000\tLB=2\r\n";

    /** The ICF's URL mapping table, STACK omitted (ABAP) and given. */
    static final String URL_PREFIXES = "version 1.0\r\n"
            + "PREFIX=/sap/bc/&CASE=&VHOST=*.*;\r\n"
            + "PREFIX=/sap/public/&CASE=&VHOST=*.*;&STACK=ABAP\r\n"
            + "PREFIX=/sap/crm/&GROUP=CRMGRP&CASE=&VHOST=*.*;&STACK=ABAP\r\n";

    /** icr_groups: instance names, an empty line, groups. */
    static final String GROUPS = "version 1.0\r\n"
            + "ls0042_ERP_00\r\n"
            + "ls0043_ERP_01\r\n"
            + "\r\n"
            + "CRMGRP:ls0043_ERP_01\r\n"
            + "SPACE:ls0042_ERP_00,ls0043_ERP_01\r\n";

    /** urlinfo.txt of Workload Distribution: zones of the portal. */
    static final String JAVA_URL_PREFIXES = "version 1.0\n"
            + "PREFIX=/irj~za/&GROUP=za&CASE=&VHOST=*.*;&STACK=J2EE\n"
            + "PREFIX=/irj~zb/&GROUP=zb&CASE=&VHOST=*.*;&STACK=J2EE\n";

    /** icrgroups.txt of Workload Distribution. */
    static final String JAVA_GROUPS = "version 1.0\n"
            + "J2EE6906720\n"
            + "\n"
            + "za:J2EE6906720\n"
            + "zb:J2EE6906720\n";

    private SapExamples() {
    }

    static String lf(String body) {
        return body.replace("\r\n", "\n");
    }

    static String spaces(String body) {
        return body.replace('\t', ' ');
    }
}
