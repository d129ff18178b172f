package dev.headroom.json;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small, strict JSON reader (RFC 8259) for the few JSON documents headroom consumes, such as
 * {@code netbird status --json}. Objects become insertion-ordered {@code Map<String, Object>}, arrays
 * {@code List<Object>} (both unmodifiable), strings {@code String}, integers that fit {@code Long}, other
 * numbers {@code Double}, {@code true}/{@code false} {@code Boolean}, and {@code null} null.
 *
 * <p>Strict means: one value per document, no comments, no trailing commas, no single quotes, no leading
 * zeros, no unescaped control characters, no duplicate keys in an object. Every error names what was
 * wrong and where (offset, line, column).
 *
 * <p>Usage: {@code Map<String, Object> root = JsonParser.parseObject(text);}
 */
public final class JsonParser {

  /** Nesting deeper than this is refused rather than risking a stack overflow on hostile input. */
  static final int MAX_DEPTH = 512;

  private final String text;
  private int pos;
  private int depth;

  private JsonParser(String text) {
    this.text = text;
  }

  /** Parses one JSON document; any non-whitespace after the value is an error. */
  public static Object parse(String text) {
    if (text == null) {
      throw new JsonParseException("no JSON text (null)", 0, 1, 1);
    }
    JsonParser p = new JsonParser(text);
    p.skipWhitespace();
    if (p.pos >= text.length()) {
      throw p.error("empty JSON text");
    }
    Object value = p.readValue();
    p.skipWhitespace();
    if (p.pos < text.length()) {
      throw p.error("unexpected " + p.describeHere() + " after the JSON value");
    }
    return value;
  }

  /** Parses a document whose top level must be an object. */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> parseObject(String text) {
    Object v = parse(text);
    if (!(v instanceof Map)) {
      throw new JsonParseException(
          "expected a JSON object at the top level, found " + typeName(v), 0, 1, 1);
    }
    return (Map<String, Object>) v;
  }

  /** A short name of a parsed value's JSON type, for error messages. */
  public static String typeName(Object v) {
    if (v == null) {
      return "null";
    }
    if (v instanceof Map) {
      return "object";
    }
    if (v instanceof List) {
      return "array";
    }
    if (v instanceof String) {
      return "string";
    }
    if (v instanceof Boolean) {
      return "boolean";
    }
    if (v instanceof Number) {
      return "number";
    }
    return v.getClass().getSimpleName();
  }

  private Object readValue() {
    if (pos >= text.length()) {
      throw error("unexpected end of input, expected a value");
    }
    char c = text.charAt(pos);
    switch (c) {
      case '{':
        return readObject();
      case '[':
        return readArray();
      case '"':
        return readString();
      case 't':
        return readLiteral("true", Boolean.TRUE);
      case 'f':
        return readLiteral("false", Boolean.FALSE);
      case 'n':
        return readLiteral("null", null);
      default:
        if (c == '-' || (c >= '0' && c <= '9')) {
          return readNumber();
        }
        throw error("unexpected " + describeHere() + ", expected a value");
    }
  }

  private Map<String, Object> readObject() {
    enter();
    pos++; // '{'
    Map<String, Object> map = new LinkedHashMap<>();
    skipWhitespace();
    if (peek() == '}') {
      pos++;
      depth--;
      return Collections.unmodifiableMap(map);
    }
    while (true) {
      skipWhitespace();
      if (peek() != '"') {
        throw error("expected a string key, found " + describeHere());
      }
      int keyStart = pos;
      String key = readString();
      skipWhitespace();
      expect(':', "after object key");
      skipWhitespace();
      Object value = readValue();
      if (map.containsKey(key)) {
        throw errorAt(keyStart, "duplicate key \"" + key + "\" in object");
      }
      map.put(key, value);
      skipWhitespace();
      char c = peek();
      if (c == ',') {
        pos++;
        continue;
      }
      if (c == '}') {
        pos++;
        depth--;
        return Collections.unmodifiableMap(map);
      }
      throw error("expected ',' or '}' in object, found " + describeHere());
    }
  }

  private List<Object> readArray() {
    enter();
    pos++; // '['
    List<Object> list = new ArrayList<>();
    skipWhitespace();
    if (peek() == ']') {
      pos++;
      depth--;
      return Collections.unmodifiableList(list);
    }
    while (true) {
      skipWhitespace();
      list.add(readValue());
      skipWhitespace();
      char c = peek();
      if (c == ',') {
        pos++;
        continue;
      }
      if (c == ']') {
        pos++;
        depth--;
        return Collections.unmodifiableList(list);
      }
      throw error("expected ',' or ']' in array, found " + describeHere());
    }
  }

  private String readString() {
    int start = pos;
    pos++; // opening quote
    StringBuilder sb = null;
    int runStart = pos;
    while (true) {
      if (pos >= text.length()) {
        throw errorAt(start, "unterminated string");
      }
      char c = text.charAt(pos);
      if (c == '"') {
        String s;
        if (sb == null) {
          s = text.substring(runStart, pos);
        } else {
          s = sb.append(text, runStart, pos).toString();
        }
        pos++;
        return s;
      }
      if (c < 0x20) {
        throw error(String.format("unescaped control character U+%04X in string", (int) c));
      }
      if (c != '\\') {
        pos++;
        continue;
      }
      if (sb == null) {
        sb = new StringBuilder();
      }
      sb.append(text, runStart, pos);
      pos++; // backslash
      if (pos >= text.length()) {
        throw errorAt(start, "unterminated string");
      }
      char e = text.charAt(pos);
      switch (e) {
        case '"': sb.append('"'); break;
        case '\\': sb.append('\\'); break;
        case '/': sb.append('/'); break;
        case 'b': sb.append('\b'); break;
        case 'f': sb.append('\f'); break;
        case 'n': sb.append('\n'); break;
        case 'r': sb.append('\r'); break;
        case 't': sb.append('\t'); break;
        case 'u':
          // Surrogate pairs arrive as two escapes and are appended one char each, which is what Java wants.
          sb.append(readHex4());
          runStart = pos;
          continue;
        default:
          throw error("invalid escape '\\" + e + "' in string");
      }
      pos++;
      runStart = pos;
    }
  }

  /** Reads the 4 hex digits after {@code \\u} (pos at 'u'); leaves pos after them. */
  private char readHex4() {
    if (pos + 4 >= text.length()) {
      throw error("truncated \\u escape in string");
    }
    int v = 0;
    for (int i = 1; i <= 4; i++) {
      char h = text.charAt(pos + i);
      int d = Character.digit(h, 16);
      if (d < 0) {
        throw errorAt(pos + i, "invalid hex digit '" + h + "' in \\u escape");
      }
      v = v * 16 + d;
    }
    pos += 5;
    return (char) v;
  }

  private Object readNumber() {
    int start = pos;
    if (peek() == '-') {
      pos++;
    }
    if (pos >= text.length() || !isDigit(text.charAt(pos))) {
      throw error("expected a digit in number");
    }
    if (text.charAt(pos) == '0') {
      pos++;
      if (pos < text.length() && isDigit(text.charAt(pos))) {
        throw errorAt(start, "leading zero in number");
      }
    } else {
      while (pos < text.length() && isDigit(text.charAt(pos))) {
        pos++;
      }
    }
    boolean integral = true;
    if (pos < text.length() && text.charAt(pos) == '.') {
      integral = false;
      pos++;
      if (pos >= text.length() || !isDigit(text.charAt(pos))) {
        throw error("expected a digit after the decimal point");
      }
      while (pos < text.length() && isDigit(text.charAt(pos))) {
        pos++;
      }
    }
    if (pos < text.length() && (text.charAt(pos) == 'e' || text.charAt(pos) == 'E')) {
      integral = false;
      pos++;
      if (pos < text.length() && (text.charAt(pos) == '+' || text.charAt(pos) == '-')) {
        pos++;
      }
      if (pos >= text.length() || !isDigit(text.charAt(pos))) {
        throw error("expected a digit in exponent");
      }
      while (pos < text.length() && isDigit(text.charAt(pos))) {
        pos++;
      }
    }
    String s = text.substring(start, pos);
    if (integral) {
      try {
        return Long.parseLong(s);
      } catch (NumberFormatException tooBig) {
        // Beyond the long range: keep the magnitude as a double rather than failing.
      }
    }
    return Double.parseDouble(s);
  }

  private Object readLiteral(String word, Object value) {
    if (!text.startsWith(word, pos)) {
      throw error("unexpected " + describeHere() + ", expected " + word);
    }
    pos += word.length();
    return value;
  }

  private void enter() {
    if (++depth > MAX_DEPTH) {
      throw error("nesting deeper than " + MAX_DEPTH + " levels");
    }
  }

  private void expect(char c, String where) {
    if (peek() != c) {
      throw error("expected '" + c + "' " + where + ", found " + describeHere());
    }
    pos++;
  }

  private char peek() {
    return pos < text.length() ? text.charAt(pos) : '\0';
  }

  private void skipWhitespace() {
    while (pos < text.length()) {
      char c = text.charAt(pos);
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        pos++;
      } else {
        return;
      }
    }
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private String describeHere() {
    if (pos >= text.length()) {
      return "end of input";
    }
    char c = text.charAt(pos);
    if (c < 0x20 || c == 0x7f) {
      return String.format("character U+%04X", (int) c);
    }
    return "'" + c + "'";
  }

  private JsonParseException error(String message) {
    return errorAt(pos, message);
  }

  private JsonParseException errorAt(int offset, String message) {
    int line = 1;
    int col = 1;
    int end = Math.min(offset, text.length());
    for (int i = 0; i < end; i++) {
      if (text.charAt(i) == '\n') {
        line++;
        col = 1;
      } else {
        col++;
      }
    }
    return new JsonParseException(message, offset, line, col);
  }

  /**
   * Malformed JSON, with the position of the problem.
   *
   * <p>Usage: {@code catch (JsonParser.JsonParseException e) { log.warn("bad JSON at line {}", e.line()); }}
   */
  public static final class JsonParseException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final int offset;
    private final int line;
    private final int column;

    public JsonParseException(String message, int offset, int line, int column) {
      super("invalid JSON at line " + line + ", column " + column + " (offset " + offset + "): " + message);
      this.offset = offset;
      this.line = line;
      this.column = column;
    }

    /** Zero-based character offset of the problem. */
    public int offset() {
      return offset;
    }

    /** One-based line of the problem. */
    public int line() {
      return line;
    }

    /** One-based column of the problem. */
    public int column() {
      return column;
    }
  }
}
