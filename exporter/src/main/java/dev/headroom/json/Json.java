package dev.headroom.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.jr.ob.JSON;
import com.fasterxml.jackson.jr.ob.JSONObjectException;
import com.fasterxml.jackson.jr.ob.JacksonJrExtension;
import com.fasterxml.jackson.jr.ob.api.ExtensionContext;
import com.fasterxml.jackson.jr.ob.api.ReaderWriterProvider;
import com.fasterxml.jackson.jr.ob.api.ValueReader;
import com.fasterxml.jackson.jr.ob.impl.JSONReader;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.io.Reader;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the JSON documents headroom consumes ({@code netbird status --json}, Prometheus's query API) and
 * the web config's YAML into records, with jackson-jr (YAML through jackson-dataformat-yaml's parser). Fields a record does not declare are ignored (those documents belong to other
 * programs and grow), but a declared field of the wrong JSON type is an error naming the field
 * ({@code peers.details[0].latency: expected an integer, got a string}); jackson-jr on its own would turn
 * {@code "12ms"} into 0.
 *
 * <p>Usage: {@code record Peer(String status, Long latency) {} Peer p = Json.read(Peer.class, "{\"status\":\"Connected\"}");}
 */
public final class Json {
  private static final JsonFactory FACTORY = JsonFactory.builder()
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .build();
  private static final JSON JSON = binder(FACTORY).build();
  /** Lazily: only a web config file is read this way, and only when one is configured. */
  private static final class Yaml {
    static final YAMLFactory FACTORY = YAMLFactory.builder()
        .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
        .enable(YAMLParser.Feature.EMPTY_STRING_AS_NULL) // "key:" with nothing after it is null, as in YAML
        .build();
    static final JSON BINDER = binder(FACTORY).enable(com.fasterxml.jackson.jr.ob.JSON.Feature.FAIL_ON_UNKNOWN_BEAN_PROPERTY).build();
  }

  private static com.fasterxml.jackson.jr.ob.JSON.Builder binder(JsonFactory factory) {
    return com.fasterxml.jackson.jr.ob.JSON.builder(factory)
        .enable(com.fasterxml.jackson.jr.ob.JSON.Feature.FAIL_ON_DUPLICATE_MAP_KEYS)
        .register(new JacksonJrExtension() {
          @Override
          protected void register(ExtensionContext ctx) {
            ctx.insertProvider(new StrictScalars());
          }
        });
  }

  private Json() {}

  /** Text that is not JSON, or JSON whose shape does not fit the record; the message says where. */
  public static final class JsonException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final String path;
    private final String problem;

    JsonException(String message, Throwable cause) {
      this("", message, cause);
    }

    JsonException(String path, String problem, Throwable cause) {
      super(path.isEmpty() ? problem : path + ": " + problem, cause);
      this.path = path;
      this.problem = problem;
    }

    /** The field at fault ({@code tls_server_config.cipher_suites}), "" when the text itself is bad. */
    public String path() {
      return path;
    }

    /** What is wrong there, without the path. */
    public String problem() {
      return problem;
    }
  }

  /** Binds one JSON document to {@code type}; anything after the document is an error. */
  public static <T> T read(Class<T> type, String text) {
    if (text == null || text.isBlank()) {
      throw new JsonException("invalid JSON: empty text", null);
    }
    try (JsonParser p = FACTORY.createParser(text)) {
      return bind(JSON, type, p, false);
    } catch (IOException e) {
      throw new JsonException("invalid JSON: " + e.getMessage(), e);
    }
  }

  /**
   * Binds a YAML document to {@code type} like {@link #read}, except that a key the record does not declare is an
   * error ({@code unknown key; known here: [...]}): YAML here is the operator's own file, where a typo must not
   * pass silently. An empty document is null.
   *
   * @throws IOException the reader failed
   */
  public static <T> T readYaml(Class<T> type, Reader text) throws IOException {
    try (JsonParser p = Yaml.FACTORY.createParser(text)) {
      if (p.nextToken() == null) {
        return null;
      }
      return bind(Yaml.BINDER, type, p, true);
    } catch (JsonProcessingException e) {
      throw new JsonException(at(e.getLocation()).replace("JSON", "YAML") + e.getOriginalMessage(), e);
    }
  }

  private static <T> T bind(JSON binder, Class<T> type, JsonParser p, boolean yaml) throws IOException {
    try {
      T value = binder.beanFrom(type, p);
      if (p.nextToken() != null) {
        throw new JsonException(at(p.currentLocation()) + "unexpected text after the JSON value", null);
      }
      return value;
    } catch (InputCoercionException e) {
      throw new JsonException(path(p), "out of range: " + e.getOriginalMessage(), e);
    } catch (JSONObjectException e) {
      String problem = shapeProblem(e, p);
      throw new JsonException(path(p), yaml ? problem.replace("an object", "a mapping").replace("an array", "a list")
          : problem, e);
    } catch (JsonProcessingException e) {
      throw new JsonException(at(e.getLocation()) + e.getOriginalMessage(), e);
    }
  }

  private static final Pattern UNKNOWN = Pattern.compile("^Unrecognized JSON property .*\\(known properties: \\[(.*)\\]\\)");

  /** An untyped view (maps, lists, strings, numbers, booleans), for tests and tools that look around. */
  public static Map<String, Object> tree(String text) {
    try {
      return JSON.mapFrom(text);
    } catch (JsonProcessingException e) {
      throw new JsonException(at(e.getLocation()) + e.getOriginalMessage(), e);
    } catch (IOException e) {
      throw new JsonException("invalid JSON: " + e.getMessage(), e);
    }
  }

  private static String at(JsonLocation l) {
    return l == null ? "invalid JSON: " : "invalid JSON at line " + l.getLineNr() + ", column " + l.getColumnNr() + ": ";
  }

  private static String shapeProblem(JSONObjectException e, JsonParser p) {
    if (e.getCause() == null && e.getOriginalMessage().startsWith("expected ")) {
      return e.getOriginalMessage(); // from StrictScalars, already in these words
    }
    Matcher unknown = UNKNOWN.matcher(e.getOriginalMessage());
    if (p.currentToken() == JsonToken.FIELD_NAME && unknown.find()) {
      return "unknown key; known here: [" + unknown.group(1).replace("\"", "") + "]";
    }
    String m = e.getOriginalMessage();
    String expected = m.contains("should get START_ARRAY") ? "an array"
        : m.contains("should get START_OBJECT") || m.startsWith("Can not create a ")
            || (m.startsWith("Failed to create an instance of ") && p.currentToken().isScalarValue()) ? "an object"
        : "another type";
    return "expected " + expected + ", got " + describe(p.currentToken());
  }

  /** The parser's position as {@code peers.details[0].latency}; "(top level)" at the root. */
  private static String path(JsonParser p) {
    StringBuilder b = new StringBuilder();
    for (String part : p.getParsingContext().pathAsPointer().toString().split("/")) {
      if (part.isEmpty()) {
        continue;
      }
      if (part.chars().allMatch(Character::isDigit)) {
        b.append('[').append(part).append(']');
      } else {
        b.append(b.length() == 0 ? "" : ".").append(part.replace("~1", "/").replace("~0", "~"));
      }
    }
    return b.length() == 0 ? "(top level)" : b.toString();
  }

  static String describe(JsonToken t) {
    if (t == null) {
      return "nothing";
    }
    return switch (t) {
      case START_OBJECT, END_OBJECT, FIELD_NAME -> "an object";
      case START_ARRAY, END_ARRAY -> "an array";
      case VALUE_STRING -> "a string";
      case VALUE_NUMBER_INT -> "an integer";
      case VALUE_NUMBER_FLOAT -> "a fraction";
      case VALUE_TRUE, VALUE_FALSE -> "a boolean";
      case VALUE_NULL -> "null";
      default -> t.name();
    };
  }

  /** Scalars only from their own JSON type: no "12ms" as 0, no 1.5 as 1, no "true" as true. */
  private static final class StrictScalars extends ReaderWriterProvider {
    @Override
    public ValueReader findValueReader(JSONReader ctx, Class<?> type) {
      if (type == long.class || type == Long.class || type == int.class || type == Integer.class) {
        return new StrictScalar(type, "an integer", JsonToken.VALUE_NUMBER_INT, null);
      }
      if (type == double.class || type == Double.class) {
        return new StrictScalar(type, "a number", JsonToken.VALUE_NUMBER_INT, JsonToken.VALUE_NUMBER_FLOAT);
      }
      if (type == boolean.class || type == Boolean.class) {
        return new StrictScalar(type, "true or false", JsonToken.VALUE_TRUE, JsonToken.VALUE_FALSE);
      }
      if (type == String.class) {
        return new StrictScalar(type, "a string", JsonToken.VALUE_STRING, null);
      }
      return null;
    }
  }

  private static final class StrictScalar extends ValueReader {
    private final String expected;
    private final JsonToken a;
    private final JsonToken b;

    StrictScalar(Class<?> type, String expected, JsonToken a, JsonToken b) {
      super(type);
      this.expected = expected;
      this.a = a;
      this.b = b;
    }

    @Override
    public Object read(JSONReader reader, JsonParser p) throws IOException {
      JsonToken t = p.currentToken();
      if (t == JsonToken.VALUE_NULL) {
        return _valueType.isPrimitive() ? fail(p, t) : null;
      }
      if (t != a && t != b) {
        return fail(p, t);
      }
      if (_valueType == long.class || _valueType == Long.class) {
        return p.getLongValue();
      }
      if (_valueType == int.class || _valueType == Integer.class) {
        return p.getIntValue(); // out of int range: jackson-core's own error, with the location
      }
      if (_valueType == double.class || _valueType == Double.class) {
        return p.getDoubleValue();
      }
      if (_valueType == boolean.class || _valueType == Boolean.class) {
        return t == JsonToken.VALUE_TRUE;
      }
      return p.getText();
    }

    private Object fail(JsonParser p, JsonToken t) throws JSONObjectException {
      throw new JSONObjectException("expected " + expected + ", got " + describe(t));
    }
  }
}
