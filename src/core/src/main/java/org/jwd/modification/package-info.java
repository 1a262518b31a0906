/**
 * SAP's modification handler ({@code icm/HTTP/mod_<xx>} and its action files): header changes, URL rewrites,
 * redirects and refusals, applied to a request first, before system selection, the URL filter and the server group,
 * so that a rewritten URL goes the whole way as the new URL. Servlet-free and pure: a request is a
 * {@link org.jwd.modification.RequestView}, the answer a {@link org.jwd.modification.Modification}.
 *
 * <p>What is followed, from SAP's documentation (help.sap.com, SAP NetWeaver 7.3 and 7.4, Internet Communication
 * Manager and SAP Web Dispatcher):
 * <ul>
 *   <li>"icm/HTTP/mod_&lt;xx&gt;": {@code PREFIX=<URL prefix>[, FILE=<action file>]}, numbers without a leading 0 and
 *       with gaps;</li>
 *   <li>"Defining HTTP Request Modifications — Creating and Maintaining an Action File" and "Defining Modification
 *       Actions": one action a line, in order, {@code #} comments; a redirect or a refusal ends the processing,
 *       {@code [break]} ends it after its rule;</li>
 *   <li>"Manipulating Header Fields" and (7.4) "Deleting, Adding, and Enhancing HTTP Header Fields": the header
 *       rules, request and response;</li>
 *   <li>"Manipulating URLs", "Rewriting URLs", "Defining the Request Redirect", "Filtering Requests": the URL rules,
 *       {@code <operation> <pattern> <dest> [<option>]}, on the URL-decoded path; {@code CODE=} for redirects;
 *       403 and 410 for refusals;</li>
 *   <li>"Defining Conditions" and (7.40) "Linking Modification Actions to Conditions": {@code if} lines,
 *       {@code [AND]} and {@code [OR]} of equal precedence, {@code begin}/{@code end} blocks and {@code else};</li>
 *   <li>"Using Variables in HTTP Request Modifications": {@code %{NAME}};</li>
 *   <li>"The nop Action": {@code NOP [break]};</li>
 *   <li>"SAP Web Dispatcher for Multiple Systems": a rule that sets {@code x-sap-webdisp-target-sid} (or the pseudo
 *       header {@code ~webdisp_target_sid}) chooses the request's system.</li>
 * </ul>
 */
package org.jwd.modification;
