package org.jwd.discovery;

import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Answers set by the test per URL; a URL without one is refused as a server that is down. Records what was asked. */
final class FakeFetcher extends InfoFetcher {
    final Map<String, String> bodies = new ConcurrentHashMap<>();
    final List<String> asked = new ArrayList<>();

    @Override
    public synchronized String fetch(URI url) throws IOException {
        asked.add(url.toString());
        String body = bodies.get(url.toString());
        if (body == null) {
            throw new java.net.ConnectException("Connection refused: " + url);
        }
        return body;
    }
}
