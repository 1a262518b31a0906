package org.jwd.modification;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jwd.config.ConfigException;
import org.jwd.config.KeyReader;

/**
 * SAP's modification handler: the {@code icm/HTTP/mod_<xx>} handlers of the configuration, each with its action
 * file, applied to a request before anything else of its way (system selection, the URL filter, the server group),
 * so that a rewritten URL is selected, filtered and routed as the new URL. Immutable: read once from the
 * configuration, swapped with it on a reload.
 *
 * <p>Handlers run in the order of their numbers, each on a request whose path (normalized, as routing reads it, and
 * compared regardless of case) starts with its {@code PREFIX}, the path as the handlers before left it. A redirect or
 * a refusal ends them all; {@code [break]} ends its own file.
 */
public final class ModificationHandlers {
    public static final String KEY_PREFIX = "icm/HTTP/mod_";
    /** No handler: nothing is modified. */
    public static final ModificationHandlers NONE = new ModificationHandlers(List.of());

    private static final Pattern KEY = Pattern.compile(Pattern.quote(KEY_PREFIX) + "(.*)");
    private static final Pattern NUMBER = Pattern.compile("0|[1-9][0-9]{0,8}");

    /**
     * One {@code icm/HTTP/mod_<xx>}.
     *
     * @param file the action file as the configuration names it, {@code null} without {@code FILE}
     * @param path where it was read from (relative names resolved against the configuration file's directory)
     */
    public record Handler(int number, String prefix, String file, Path path, ActionFile actions) {
        /** {@code icm/HTTP/mod_<number>} */
        public String key() {
            return KEY_PREFIX + number;
        }

        @Override
        public String toString() {
            return key() + " = PREFIX=" + prefix + (file == null ? "" : ", FILE=" + file);
        }
    }

    private final Handler[] handlers;

    private ModificationHandlers(List<Handler> handlers) {
        this.handlers = handlers.toArray(new Handler[0]);
    }

    /**
     * Reads every {@code icm/HTTP/mod_<xx>} key and its action file; each problem goes to {@code keys}, located at the
     * key's line, or at the action file's line. {@link #NONE} without such keys.
     */
    public static ModificationHandlers read(KeyReader keys) {
        List<Handler> handlers = new ArrayList<>();
        for (Map.Entry<String, String> e : new TreeMap<>(keys.values()).entrySet()) {
            Matcher m = KEY.matcher(e.getKey());
            if (!m.matches()) {
                continue;
            }
            keys.raw(e.getKey());
            if (!NUMBER.matcher(m.group(1)).matches()) {
                keys.problem(e.getKey(), KEY_PREFIX + "<xx>, <xx> a number without a leading 0 (" + KEY_PREFIX
                        + "0, " + KEY_PREFIX + "1, ...)");
                continue;
            }
            Handler handler = HandlerValue.read(Integer.parseInt(m.group(1)), e.getKey(), e.getValue(), keys);
            if (handler != null) {
                handlers.add(handler);
            }
        }
        handlers.sort(Comparator.comparingInt(Handler::number));
        return handlers.isEmpty() ? NONE : new ModificationHandlers(handlers);
    }

    /** As {@link #read}, for text and a directory alone (tests, benchmarks): the problems thrown together. */
    public static ModificationHandlers parse(Map<String, String> properties, Path directory) throws ConfigException {
        KeyReader keys = KeyReader.of(properties, directory);
        ModificationHandlers handlers = read(keys);
        keys.check();
        return handlers;
    }

    /**
     * Applies the handlers to {@code request}.
     *
     * @return what they did; {@link Modification#NONE} when nothing applied and no system is named
     */
    public Modification apply(RequestView request) {
        Context context = null;
        for (Handler handler : handlers) {
            if (context == null) {
                if (!request.path().path().regionMatches(true, 0, handler.prefix(), 0, handler.prefix().length())) {
                    continue;
                }
                context = new Context(request);
            } else if (!context.isUnder(handler.prefix())) {
                continue;
            }
            handler.actions().run(context);
            if (context.answered()) {
                break;
            }
        }
        return context == null ? Modification.naming(targetSid(request)) : context.result();
    }

    private static String targetSid(RequestView request) {
        String sid = request.header().apply(Modification.TARGET_SID_HEADER);
        return sid == null || sid.isBlank() ? null : sid.strip();
    }

    /** Whether any {@code icm/HTTP/mod_<xx>} is configured. */
    public boolean isConfigured() {
        return handlers.length > 0;
    }

    public List<Handler> handlers() {
        return List.of(handlers);
    }

    /** The action files the handlers read: a reload watches them with the configuration file. */
    public List<Path> files() {
        return handlers().stream().map(Handler::path).filter(p -> p != null).distinct().toList();
    }

    @Override
    public String toString() {
        return "ModificationHandlers" + List.of(handlers);
    }
}
