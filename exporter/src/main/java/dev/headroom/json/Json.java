package dev.headroom.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.jr.ob.JSON;
import com.fasterxml.jackson.jr.ob.JSONObjectException;
import com.fasterxml.jackson.jr.ob.JacksonJrExtension;
import com.fasterxml.jackson.jr.ob.api.ExtensionContext;
import com.fasterxml.jackson.jr.ob.api.ReaderWriterProvider;
import com.fasterxml.jackson.jr.ob.api.ValueReader;
import com.fasterxml.jackson.jr.ob.impl.JSONReader;
import java.io.IOException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Reads the JSON documents headroom consumes ({@code netbird status --json}, Prometheus's query API) into
 * records, with jackson-jr. Fields a record does not declare are ignored (those documents belong to other
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
  private static final JSON JSON = com.fasterxml.jackson.jr.ob.JSON.builder(FACTORY)
      .enable(com.fasterxml.jackson.jr.ob.JSON.Feature.FAIL_ON_DUPLICATE_MAP_KEYS)
      .register(new JacksonJrExtension() {
        @Override
        protected void register(ExtensionContext ctx) {
          ctx.insertProvider(new StrictScalars());
        }
      })
      .build();

  private Json() {}

  /** Text that is not JSON, or JSON whose shape does not fit the record; the message says where. */
  public static final class JsonException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    JsonException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /** Binds one JSON document to {@code type}; anything after the document is an error. */
  public static <T> T read(Class<T> type, String text) {
    if (text == null || text.isBlank()) {
      throw new JsonException("invalid JSON: empty text", null);
    }
    try (JsonParser p = FACTORY.createParser(text)) {
      return bind(type, p);
    } catch (IOException e) {
      throw new JsonException("invalid JSON: " + e.getMessage(), e);
    }
  }

  /**
   * Binds a JSON array of objects to a list of {@code elementType}; error paths start at the element's index
   * ({@code [12].connected: expected true or false, got a string}).
   */
  public static <T> List<T> readList(Class<T> elementType, String text) {
    if (text == null || text.isBlank()) {
      throw new JsonException("invalid JSON: empty text", null);
    }
    try (JsonParser p = FACTORY.createParser(text)) {
      if (p.nextToken() != JsonToken.START_ARRAY) {
        throw new JsonException("(top level): expected an array, got " + describe(p.currentToken()), null);
      }
      return bind(elementType, p, true, () -> JSON.listOfFrom(elementType, p));
    } catch (IOException e) {
      throw new JsonException("invalid JSON: " + e.getMessage(), e);
    }
  }

  private interface Binding<T> {
    T bind() throws IOException;
  }

  private static <T> T bind(Class<T> type, JsonParser p) throws IOException {
    return bind(type, p, false, () -> JSON.beanFrom(type, p));
  }

  /** {@code list}: the document is an array of {@code type}, so a path's first step is an element index. */
  private static <T> T bind(Class<?> type, JsonParser p, boolean list, Binding<T> binding) throws IOException {
    try {
      T value = binding.bind();
      if (p.nextToken() != null) {
        throw new JsonException(at(p.currentLocation()) + "unexpected text after the JSON value", null);
      }
      return value;
    } catch (InputCoercionException e) {
      throw new JsonException(path(p) + ": out of range: " + e.getOriginalMessage(), e);
    } catch (JSONObjectException e) {
      throw new JsonException(path(p) + ": " + shapeProblem(e, type, list, p), e);
    } catch (JsonProcessingException e) {
      throw new JsonException(at(e.getLocation()) + e.getOriginalMessage(), e);
    }
  }

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

  /**
   * What the document holds where the record wanted something else. The wanted kind comes from the record
   * component at the parser's position, not from the library's message.
   */
  private static String shapeProblem(JSONObjectException e, Class<?> root, boolean list, JsonParser p) {
    if (e instanceof WrongScalar) {
      return e.getOriginalMessage(); // already in these words
    }
    List<Object> names = names(p);
    if (list && !names.isEmpty() && names.get(0) instanceof Integer) {
      names = names.subList(1, names.size());
    }
    Class<?> wanted = raw(declared(root, names));
    String expected = wanted == null ? "another type"
        : Collection.class.isAssignableFrom(wanted) ? "an array" : "an object";
    return "expected " + expected + ", got " + describe(p.currentToken());
  }

  /** The parser's position, outermost first: field names, and list indexes as Integers. */
  private static List<Object> names(JsonParser p) {
    List<Object> out = new ArrayList<>();
    for (JsonStreamContext c = p.getParsingContext(); c != null && !c.inRoot(); c = c.getParent()) {
      if (c.inObject() && c.getCurrentName() != null) {
        out.add(0, c.getCurrentName());
      } else if (c.inArray() && c.getCurrentIndex() >= 0 && c.hasCurrentIndex()) {
        out.add(0, c.getCurrentIndex());
      }
    }
    return out;
  }

  /** The position as {@code peers.details[0].latency}; "(top level)" at the root. */
  private static String path(JsonParser p) {
    StringBuilder b = new StringBuilder();
    for (Object part : names(p)) {
      if (part instanceof Integer i) {
        b.append('[').append(i).append(']');
      } else {
        b.append(b.length() == 0 ? "" : ".").append(part);
      }
    }
    return b.length() == 0 ? "(top level)" : b.toString();
  }

  /** The declared type at {@code names} below {@code t}: record components and list elements. */
  private static Type declared(Type t, List<Object> names) {
    for (Object name : names) {
      Class<?> c = raw(t);
      if (name instanceof Integer) {
        t = t instanceof ParameterizedType pt ? pt.getActualTypeArguments()[0] : null;
      } else if (c != null && c.isRecord()) {
        t = Arrays.stream(c.getRecordComponents()).filter(rc -> rc.getName().equals(name)).findFirst()
            .map(RecordComponent::getGenericType).orElse(null);
      } else {
        return null;
      }
    }
    return t;
  }

  private static Class<?> raw(Type t) {
    return t instanceof Class<?> c ? c : t instanceof ParameterizedType pt ? (Class<?>) pt.getRawType() : null;
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
      throw new WrongScalar("expected " + expected + ", got " + describe(t));
    }
  }

  /** A scalar of the wrong JSON type, told in this class's words. */
  private static final class WrongScalar extends JSONObjectException {
    private static final long serialVersionUID = 1L;

    WrongScalar(String message) {
      super(message);
    }
  }
}
