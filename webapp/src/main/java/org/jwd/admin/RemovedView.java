package org.jwd.admin;

/** {@code DELETE api/servers/<id>}: the registered server {@code removed} has left. */
public record RemovedView(String removed) {
}
