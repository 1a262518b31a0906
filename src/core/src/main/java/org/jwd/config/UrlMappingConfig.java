package org.jwd.config;

import java.net.URI;
import java.time.Duration;
import java.util.List;

/**
 * The URL mapping table's keys: which URLs are ABAP (the ICF prefixes), where more prefixes are read from, and who
 * serves root URLs.
 *
 * @param urlPrefixes        the table's entries ({@code icf.url_prefixes}), as written
 * @param urlPrefixesUrl     where to load more entries from ({@code icf.url_prefixes_url}), or {@code null}
 * @param autoRefresh        how often that URL is read again ({@code wdisp/auto_refresh})
 * @param defaultRootHandler who serves root URLs ({@code is/HTTP/default_root_hdl})
 */
public record UrlMappingConfig(List<String> urlPrefixes, URI urlPrefixesUrl, Duration autoRefresh,
                               ServerType defaultRootHandler) {
    public UrlMappingConfig {
        urlPrefixes = List.copyOf(urlPrefixes);
    }
}
