package dev.headroom.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class JsonTest {
  record Inner(long count, Double ratio, Boolean on, String name, Integer small) {}

  record Outer(Inner inner, List<Inner> items) {}

  @Test
  void bindsRecordsAndIgnoresFieldsTheyDoNotDeclare() {
    Outer o = Json.read(Outer.class,
        "{\"inner\":{\"count\":3,\"ratio\":1,\"on\":true,\"name\":\"x\",\"extra\":[1,2]},\"items\":[],\"more\":{}}");
    assertEquals(new Inner(3, 1.0, true, "x", null), o.inner());
    assertEquals(List.of(), o.items());
    assertNull(Json.read(Outer.class, "{}").inner(), "absent fields are null");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"inner\":{\"count\":\"12ms\"}}|inner.count: expected an integer, got a string",
        "{\"inner\":{\"count\":1.5}}|inner.count: expected an integer, got a fraction",
        "{\"inner\":{\"count\":null}}|inner.count: expected an integer, got null",
        "{\"inner\":{\"on\":\"true\"}}|inner.on: expected true or false, got a string",
        "{\"inner\":{\"name\":7}}|inner.name: expected a string, got an integer",
        "{\"items\":[{},{\"ratio\":\"NaN\"}]}|items[1].ratio: expected a number, got a string",
        "{\"inner\":[]}|inner: expected an object, got an array",
        "{\"inner\":{\"small\":3000000000}}|inner.small: out of range",
        "{\"items\":{}}|items: expected an array, got an object",
        "{\"inner\":5}|inner: expected an object, got an integer",
        "{\"items\":\"x\"}|items: expected an array, got a string",
        "{\"items\":[{},7]}|items[1]: expected an object, got an integer",
        "{\"inner\":{},\"inner\":{}}|line 1, column 20: Duplicate field 'inner'",
        "{\"inner\":{}} {}|unexpected text after the JSON value",
        "Daemon status: NeedsLogin|invalid JSON at line 1, column 1",
        "{\"inner\":{\"count\":1,}}|invalid JSON at line 1",
        "''|empty text",
      })
  void wrongShapesAndBadTextNameTheFieldOrThePlace(String text, String message) {
    Json.JsonException e = assertThrows(Json.JsonException.class, () -> Json.read(Outer.class, text));
    assertTrue(e.getMessage().contains(message), e.getMessage());
  }

  @Test
  void treeIsAnUntypedView() {
    assertEquals(List.of(1, "a"), Json.tree("{\"k\":[1,\"a\"]}").get("k"));
  }

  record Item(String id, Boolean on, List<String> tags) {}

  @Test
  void aListOfRecordsNamesTheElementOfAWrongField() {
    assertEquals(List.of(new Item("a", true, List.of("x")), new Item("b", null, null)),
        Json.readList(Item.class, "[{\"id\":\"a\",\"on\":true,\"tags\":[\"x\"],\"more\":1},{\"id\":\"b\"}]"));
    assertEquals("[1].on: expected true or false, got a string",
        assertThrows(Json.JsonException.class, () -> Json.readList(Item.class, "[{\"id\":\"a\"},{\"on\":\"yes\"}]"))
            .getMessage());
    assertEquals("[0].tags: expected an array, got a string",
        assertThrows(Json.JsonException.class, () -> Json.readList(Item.class, "[{\"tags\":\"x\"}]")).getMessage());
    assertEquals("(top level): expected an array, got an object",
        assertThrows(Json.JsonException.class, () -> Json.readList(Item.class, "{\"id\":\"a\"}")).getMessage());
  }
}
