package org.jwd.demo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;

/**
 * The ICF's information services of a demo ABAP server, {@code /sap/public/icf_info/icr_urlprefix} and
 * {@code /sap/public/icf_info/icr_groups}, which SAP's Web Dispatcher (and jwd's discovery) asks an ABAP server of
 * the message server's list for. It answers {@link IcfInfo}'s lists as plain text, as the ICF does.
 */
public final class IcfInfoServlet extends HttpServlet {
    /** Where the ICF serves them (SAP's defaults of {@code wdisp/url_map_location} and {@code wdisp/group_info_location}). */
    public static final String PATH = "/sap/public/icf_info";

    /** Mounts the servlet at {@link #PATH} on an ABAP backend's context; a Java server process has no ICF. */
    static void mount(ServletContextHandler context, DemoBackend.Options options) {
        if (options.type() == DemoBackend.ServerType.ABAP) {
            context.addServlet(new ServletHolder("icf_info", new IcfInfoServlet()), PATH + "/*");
        }
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String list = switch (request.getPathInfo() == null ? "" : request.getPathInfo()) {
            case "/icr_urlprefix" -> IcfInfo.urlPrefixes();
            case "/icr_groups" -> IcfInfo.groups();
            default -> null;
        };
        if (list == null) {
            response.sendError(404);
            return;
        }
        response.setContentType("text/plain;charset=utf-8");
        response.getOutputStream().write(list.getBytes(StandardCharsets.UTF_8));
    }
}
