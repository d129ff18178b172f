package dev.headroom.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.headroom.json.JsonWriter;
import org.junit.jupiter.api.Test;

class JsonWriterTest {
  @Test
  void nestedObjectsArraysAndEscapes() {
    String s = new JsonWriter().object()
        .field("a", 1).field("b", "x\"y<z>").field("nan", Double.NaN).field("f", 0.5)
        .name("list").array().value(1).value(true).object().field("k", "v").end().end()
        .end().toString();
    assertEquals("{\"a\":1,\"b\":\"x\\\"y\\u003Cz\\u003E\",\"nan\":null,\"f\":0.5,\"list\":[1,true,{\"k\":\"v\"}]}", s);
  }
}
