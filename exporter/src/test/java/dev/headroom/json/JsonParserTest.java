package dev.headroom.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import dev.headroom.json.JsonParser.JsonParseException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JsonParserTest {

  @Test
  void parsesEveryValueTypeIntoJavaTypes() {
    Map<String, Object> m = JsonParser.parseObject(
        "{\"s\":\"x\",\"i\":42,\"neg\":-7,\"d\":1.5,\"e\":2E3,\"t\":true,\"f\":false,\"n\":null,"
            + "\"a\":[1,\"two\",[]],\"o\":{}}");
    assertEquals("x", m.get("s"));
    assertEquals(42L, m.get("i"));
    assertEquals(-7L, m.get("neg"));
    assertEquals(1.5, m.get("d"));
    assertEquals(2000.0, m.get("e"));
    assertEquals(Boolean.TRUE, m.get("t"));
    assertEquals(Boolean.FALSE, m.get("f"));
    assertTrue(m.containsKey("n"));
    assertNull(m.get("n"));
    assertEquals(List.of(1L, "two", List.of()), m.get("a"));
    assertEquals(Map.of(), m.get("o"));
  }

  @Test
  void keepsKeyOrderAndReturnsUnmodifiableContainers() {
    Map<String, Object> m = JsonParser.parseObject("{\"z\":1,\"a\":2,\"m\":[3]}");
    assertEquals(List.of("z", "a", "m"), List.copyOf(m.keySet()));
    assertThrows(UnsupportedOperationException.class, () -> m.put("x", 1));
    @SuppressWarnings("unchecked")
    List<Object> arr = (List<Object>) m.get("m");
    assertThrows(UnsupportedOperationException.class, () -> arr.add(4));
  }

  @Test
  void decodesEscapesIncludingSurrogatePairs() {
    Object v = JsonParser.parse("\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\"");
    assertEquals("a\"b\\c/d\b\f\n\r\t\u00e9\uD83D\uDE00", v);
  }

  @Test
  void acceptsNonAsciiAndWhitespaceAroundTheValue() {
    assertEquals("größe ✓", JsonParser.parse(" \r\n\t\"größe ✓\"\n"));
  }

  @Test
  void largeIntegersBeyondLongBecomeDoubles() {
    assertEquals(Long.MAX_VALUE, JsonParser.parse("9223372036854775807"));
    Object big = JsonParser.parse("18446744073709551615");
    assertInstanceOf(Double.class, big);
    assertEquals(1.8446744073709552E19, (Double) big, 1e4);
  }

  @Test
  void nanosecondLatencyStaysExactAsLong() {
    assertEquals(12_500_000L, JsonParser.parseObject("{\"latency\":12500000}").get("latency"));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "", "   ", "{", "[1,]", "{\"a\":1,}", "{'a':1}", "01", "-", "1.", ".5", "1e", "+1", "tru", "nul",
      "\"abc", "\"a\\x\"", "\"\\u12\"", "\"\\u12g4\"", "{\"a\" 1}", "{1:2}", "[1 2]", "1 2", "// c\n1",
      "NaN", "Infinity", "{\"a\":1}x", "\"tab\there\""
  })
  void rejectsMalformedInput(String bad) {
    assertThrows(JsonParseException.class, () -> JsonParser.parse(bad));
  }

  @Test
  void errorNamesTheProblemAndItsLineAndColumn() {
    JsonParseException e = assertThrows(JsonParseException.class,
        () -> JsonParser.parse("{\n  \"a\": 1,\n  \"b\": tru\n}"));
    assertEquals(3, e.line());
    assertEquals(8, e.column());
    assertTrue(e.getMessage().contains("expected true"), e.getMessage());
    assertTrue(e.getMessage().contains("line 3, column 8"), e.getMessage());
  }

  @Test
  void rejectsDuplicateKeysNamingTheKey() {
    JsonParseException e = assertThrows(JsonParseException.class,
        () -> JsonParser.parse("{\"peers\":1,\"peers\":2}"));
    assertTrue(e.getMessage().contains("duplicate key \"peers\""), e.getMessage());
  }

  @Test
  void rejectsTrailingGarbageNamingIt() {
    JsonParseException e = assertThrows(JsonParseException.class, () -> JsonParser.parse("{} ]"));
    assertTrue(e.getMessage().contains("unexpected ']' after the JSON value"), e.getMessage());
    assertEquals(3, e.offset());
  }

  @Test
  void refusesNestingDeeperThanTheLimitInsteadOfOverflowingTheStack() {
    String deep = "[".repeat(100_000) + "]".repeat(100_000);
    JsonParseException e = assertThrows(JsonParseException.class, () -> JsonParser.parse(deep));
    assertTrue(e.getMessage().contains("nesting deeper than"), e.getMessage());
    String ok = "[".repeat(JsonParser.MAX_DEPTH) + "]".repeat(JsonParser.MAX_DEPTH);
    assertInstanceOf(List.class, JsonParser.parse(ok));
  }

  @Test
  void parseObjectRefusesNonObjectTopLevel() {
    JsonParseException e = assertThrows(JsonParseException.class, () -> JsonParser.parseObject("[]"));
    assertTrue(e.getMessage().contains("expected a JSON object at the top level, found array"), e.getMessage());
  }

  @Test
  void nullTextIsAClearError() {
    assertThrows(JsonParseException.class, () -> JsonParser.parse(null));
  }
}
