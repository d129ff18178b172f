package dev.headroom.json;

/**
 * Malformed JSON, with the position of the problem.
 *
 * <p>Usage: {@code catch (JsonParseException e) { log.warn("bad JSON at line {}", e.line()); }}
 */
public final class JsonParseException extends IllegalArgumentException {
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
