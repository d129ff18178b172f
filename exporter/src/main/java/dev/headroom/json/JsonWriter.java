package dev.headroom.json;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * A small streaming JSON writer: enough for the status endpoint without a mapping library.
 *
 * <p>Usage: {@code String s = new JsonWriter().object().field("a", 1).end().toString();}
 */
public final class JsonWriter {
  private final StringBuilder out = new StringBuilder(1024);
  /** An open object or array: the bracket that closes it, and whether it holds an element yet. */
  private static final class Frame {
    final char close;
    boolean hasElement;

    Frame(char close) {
      this.close = close;
    }
  }

  private final Deque<Frame> stack = new ArrayDeque<>();
  private boolean afterName;

  public JsonWriter object() {
    value();
    out.append('{');
    stack.push(new Frame('}'));
    return this;
  }

  public JsonWriter array() {
    value();
    out.append('[');
    stack.push(new Frame(']'));
    return this;
  }

  public JsonWriter end() {
    out.append(stack.pop().close);
    return this;
  }

  public JsonWriter name(String name) {
    comma();
    string(name);
    out.append(':');
    afterName = true;
    return this;
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
    value();
    if (v == null) {
      out.append("null");
    } else {
      string(v);
    }
    return this;
  }

  /** NaN and infinities have no JSON form: they are written as null ("unknown"). */
  public JsonWriter value(double v) {
    value();
    if (Double.isFinite(v)) {
      if (v == Math.rint(v) && Math.abs(v) < 1e15) {
        out.append((long) v);
      } else {
        out.append(v);
      }
    } else {
      out.append("null");
    }
    return this;
  }

  public JsonWriter value(long v) {
    value();
    out.append(v);
    return this;
  }

  public JsonWriter value(boolean v) {
    value();
    out.append(v);
    return this;
  }

  private void value() {
    if (afterName) {
      afterName = false;
    } else {
      comma();
    }
  }

  private void comma() {
    Frame top = stack.peek();
    if (top != null) {
      if (top.hasElement) {
        out.append(',');
      }
      top.hasElement = true;
    }
  }

  private void string(String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20 || c == '<' || c == '>' || c == '&') {
            out.append(String.format("\\u%04x", (int) c)); // also keeps the JSON safe inside HTML
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  @Override
  public String toString() {
    return out.toString();
  }
}
