package org.jwd.demo;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

import org.jwd.demo.DemoBackend.Options;

/**
 * The demo's ERP as jwd learns it from SAP: its instances listed by a {@link MessageServerStandIn} (jwd's
 * configuration names only {@code MSHOST} and {@code MSPORT}), the ICF's lists its ABAP server answers
 * ({@link IcfInfo}), and one more ABAP server that a user starts and stops on the stand-in's page
 * ({@link StandInPage}) to watch it join and leave. {@code bin/jwd demo} and the tests of the demo run this same
 * landscape, on the demo's ports or on ephemeral ones.
 *
 * <ul>
 *   <li>{@value #ABAP}: the ABAP server, capacity {@value #ABAP_CAPACITY} ({@code LB=} of its {@code DIAG} row);</li>
 *   <li>{@value #JAVA}: the Java server process ({@code J2EE} rows), capacity 1;</li>
 *   <li>{@value #MORE}: one more ABAP server, capacity {@value #ABAP_CAPACITY}, while a user runs it.</li>
 * </ul>
 * The ICF's lists: {@code /sap/} is ABAP, and {@code /sap/bc/gui/} is the logon group {@value #GROUP} of both ABAP
 * servers (SMLG's assignment stays while an instance is down, as SAP's does): a group no configuration names.
 */
public final class ErpLandscape implements AutoCloseable {
    public static final String ABAP = "erp_ERP_00";
    public static final String JAVA = "erp_ERP_10";
    public static final String MORE = "erp_ERP_01";
    public static final String GROUP = "WEBGUI";
    public static final int ABAP_CAPACITY = 3;
    /** What ERP's ABAP servers answer for {@code icr_urlprefix}, after {@code version 1.0}. */
    static final String URL_PREFIXES = "PREFIX=/sap/&CASE=&VHOST=*.*;&STACK=ABAP\n"
            + "PREFIX=/sap/bc/gui/&GROUP=" + GROUP + "&CASE=&VHOST=*.*;&STACK=ABAP\n";
    /** What they answer for {@code icr_groups}'s groups. */
    static final String GROUPS = GROUP + ":" + ABAP + "," + MORE + "\n";

    /**
     * Where each listens; 0 for an ephemeral port.
     *
     * @param standIn the stand-in's HTTP port, {@code MSPORT}
     */
    public record Ports(int standIn, int abap, int java, int more) {
        /** {@code bin/jwd demo}'s, as {@code config/demo-systems.properties} names the stand-in's. */
        public static final Ports DEMO = new Ports(8100, 8111, 8121, 8112);
        public static final Ports EPHEMERAL = new Ports(0, 0, 0, 0);
    }

    private final Ports ports;
    private final UnaryOperator<Options> dress;
    private final List<DemoBackend> backends;
    private final MessageServerStandIn standIn;
    /** the one more instance while it runs; guarded by this */
    private DemoBackend more;
    /** where jwd answers: the page's links and requests; {@code null} until told */
    private volatile URI dispatcher;

    private ErpLandscape(Ports ports, UnaryOperator<Options> dress, List<DemoBackend> backends,
                         MessageServerStandIn standIn) {
        this.ports = ports;
        this.dress = dress;
        this.backends = List.copyOf(backends);
        this.standIn = standIn;
    }

    /**
     * Starts ERP's ABAP and Java servers and the stand-in listing them, with its page.
     *
     * @param dress what the demo adds to each server's options (the portal's iViews, their delay)
     */
    public static ErpLandscape start(Ports ports, UnaryOperator<Options> dress) {
        IcfInfo.set(URL_PREFIXES, GROUPS);
        List<DemoBackend> backends = new ArrayList<>();
        StandInPage page = new StandInPage();
        try {
            backends.add(DemoBackend.start(dress.apply(Options.abap(ABAP).withPort(ports.abap()))));
            // its saplb_* cookie names its instance, as an AS Java's does: jwd reads the cookie as this server's
            backends.add(DemoBackend.start(dress.apply(Options.j2ee(JAVA).withPort(ports.java()).withInstance(JAVA))));
            MessageServerStandIn standIn = MessageServerStandIn.start(ports.standIn(), null, page);
            standIn.add(MessageServerStandIn.Instance.of(backends.get(0), ABAP, ABAP_CAPACITY));
            standIn.add(MessageServerStandIn.Instance.of(backends.get(1), JAVA, 1));
            ErpLandscape erp = new ErpLandscape(ports, dress, backends, standIn);
            page.show(erp);
            return erp;
        } catch (RuntimeException e) {
            backends.forEach(DemoBackend::close);
            IcfInfo.reset();
            throw e;
        }
    }

    /** Tells where jwd answers, for the page's links and the requests it sends through jwd. */
    public void dispatcher(URI jwd) {
        this.dispatcher = jwd;
    }

    /** Where jwd answers, or {@code null} before {@link #dispatcher(URI)}. */
    public URI dispatcher() {
        return dispatcher;
    }

    /** Starts {@value #MORE} and lists it; the one running when it runs already. */
    public synchronized DemoBackend startMore() {
        if (more == null) {
            more = DemoBackend.start(dress.apply(Options.abap(MORE).withPort(ports.more())));
            standIn.add(MessageServerStandIn.Instance.of(more, MORE, ABAP_CAPACITY));
        }
        return more;
    }

    /**
     * Stops {@value #MORE}: the stand-in lists it no more, as a message server once an instance has stopped, and its
     * process ends (a request jwd sends it before its next refresh is refused, and sent to another server).
     *
     * @return whether it ran
     */
    public synchronized boolean stopMore() {
        if (more == null) {
            return false;
        }
        standIn.remove(MORE);
        more.stop();
        more = null;
        return true;
    }

    /** {@value #MORE} while it runs, else {@code null}. */
    public synchronized DemoBackend more() {
        return more;
    }

    /** ERP's servers that run now: the ABAP server, the Java server, and {@value #MORE} while it runs. */
    public synchronized List<DemoBackend> backends() {
        List<DemoBackend> all = new ArrayList<>(backends);
        if (more != null) {
            all.add(more);
        }
        return all;
    }

    public MessageServerStandIn standIn() {
        return standIn;
    }

    /** Stops the stand-in and every server, and gives the ICF's lists their defaults again. */
    @Override
    public void close() {
        try {
            standIn.stop();
            stopMore();
        } finally {
            backends.forEach(DemoBackend::close);
            IcfInfo.reset();
        }
    }

    @Override
    public String toString() {
        return "ErpLandscape[" + standIn + "]";
    }
}
