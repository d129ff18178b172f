package dev.headroom.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;

/**
 * The status and history documents' writer: jackson-core's streaming generator with headroom's two rules,
 * non-finite numbers are {@code null} ("unknown") and {@code < > &} are escaped so the JSON is safe inside
 * HTML. Integral doubles are written without a fraction, as counts read better that way.
 *
 * <p>Usage: {@code String s = new JsonWriter().object().field("a", 1).end().toString();}
 */
public final class JsonWriter {
  private static final JsonFactory FACTORY = new JsonFactory();
  private static final CharacterEscapes HTML_SAFE = new CharacterEscapes() {
    private static final long serialVersionUID = 1L;
    private final int[] escapes = standardAsciiEscapesForJSON();

    {
      escapes['<'] = ESCAPE_STANDARD;
      escapes['>'] = ESCAPE_STANDARD;
      escapes['&'] = ESCAPE_STANDARD;
    }

    @Override
    public int[] getEscapeCodesForAscii() {
      return escapes;
    }

    @Override
    public com.fasterxml.jackson.core.SerializableString getEscapeSequence(int ch) {
      return null;
    }
  };

  private final StringWriter out = new StringWriter(1024);
  private final JsonGenerator g;

  public JsonWriter() {
    try {
      g = FACTORY.createGenerator(out).setCharacterEscapes(HTML_SAFE);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The generator writes into a StringWriter, which never throws; this only satisfies the signatures. */
  private interface Write {
    void run() throws IOException;
  }

  private JsonWriter write(Write w) {
    try {
      w.run();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return this;
  }

  public JsonWriter object() {
    return write(g::writeStartObject);
  }

  public JsonWriter array() {
    return write(g::writeStartArray);
  }

  /** Closes the innermost open object or array. */
  public JsonWriter end() {
    return write(() -> {
      if (g.getOutputContext().inArray()) {
        g.writeEndArray();
      } else {
        g.writeEndObject();
      }
    });
  }

  public JsonWriter name(String name) {
    return write(() -> g.writeFieldName(name));
  }

  public JsonWriter field(String name, String v) {
    return name(name).value(v);
  }

  public JsonWriter field(String name, double v) {
    return name(name).value(v);
  }

  public JsonWriter field(String name, long v) {
    return name(name).value(v);
  }

  public JsonWriter field(String name, boolean v) {
    return name(name).value(v);
  }

  public JsonWriter value(String v) {
    return write(() -> g.writeString(v));
  }

  /** NaN and infinities have no JSON form: they are written as null ("unknown"). */
  public JsonWriter value(double v) {
    return write(() -> {
      if (!Double.isFinite(v)) {
        g.writeNull();
      } else if (v == Math.rint(v) && Math.abs(v) < 1e15) {
        g.writeNumber((long) v);
      } else {
        g.writeNumber(v);
      }
    });
  }

  public JsonWriter value(long v) {
    return write(() -> g.writeNumber(v));
  }

  public JsonWriter value(boolean v) {
    return write(() -> g.writeBoolean(v));
  }

  @Override
  public String toString() {
    return write(g::flush).out.toString();
  }
}
