package dev.headroom.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PrometheusQueryTest {
  private static final String WHERE = "http://prom:9090";

  private static OptionalDouble parse(String body) throws PrometheusQuery.QueryException {
    return PrometheusQuery.parse(200, body, WHERE);
  }

  @Test
  void aOneSeriesVectorGivesItsValue() throws Exception {
    OptionalDouble v = parse("""
        {"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1717000000.123,"3000"]}]}}""");
    assertEquals(3000.0, v.getAsDouble());
  }

  @Test
  void anEmptyVectorIsNoValueNotZero() throws Exception {
    assertTrue(parse("{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[]}}").isEmpty());
  }

  @Test
  void nanAndInfinityArriveAsStringsAndAreKept() throws Exception {
    assertTrue(Double.isNaN(parse("""
        {"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1,"NaN"]}]}}""")
        .getAsDouble()));
    assertEquals(Double.POSITIVE_INFINITY, parse("""
        {"status":"success","data":{"resultType":"scalar","result":[1,"+Inf"]}}""").getAsDouble());
  }

  @Test
  void aPrometheusErrorIsReportedWithItsOwnText() {
    PrometheusQuery.QueryException e = assertThrows(PrometheusQuery.QueryException.class,
        () -> PrometheusQuery.parse(400, """
            {"status":"error","errorType":"bad_data","error":"1:5: parse error: unexpected end of input"}""", WHERE));
    assertTrue(e.getMessage().contains("refused the query (HTTP 400, bad_data): 1:5: parse error: unexpected end"),
        e.getMessage());
  }

  @Test
  void severalSeriesAreRefusedBecauseTheQueryShouldHaveAggregated() {
    PrometheusQuery.QueryException e = assertThrows(PrometheusQuery.QueryException.class, () -> parse("""
        {"status":"success","data":{"resultType":"vector","result":[
          {"metric":{"instance":"a"},"value":[1,"1"]},{"metric":{"instance":"b"},"value":[1,"2"]}]}}"""));
    assertTrue(e.getMessage().contains("returned 2 series, expected one"), e.getMessage());
  }

  @Test
  void somethingOtherThanPrometheusIsCalledSo() {
    PrometheusQuery.QueryException html = assertThrows(PrometheusQuery.QueryException.class,
        () -> PrometheusQuery.parse(404, "<html><body>Not Found</body></html>", WHERE));
    assertTrue(html.getMessage().contains("did not answer like Prometheus (HTTP 404, not JSON)"), html.getMessage());
    PrometheusQuery.QueryException json = assertThrows(PrometheusQuery.QueryException.class,
        () -> parse("{\"hello\":\"world\"}"));
    assertTrue(json.getMessage().contains("did not answer like Prometheus"), json.getMessage());
    PrometheusQuery.QueryException matrix = assertThrows(PrometheusQuery.QueryException.class, () -> parse(
        "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[]}}"));
    assertTrue(matrix.getMessage().contains("returned a matrix, expected an instant vector"), matrix.getMessage());
    PrometheusQuery.QueryException value = assertThrows(PrometheusQuery.QueryException.class, () -> parse(
        "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"metric\":{},\"value\":[1,2]}]}}"));
    assertTrue(value.getMessage().contains("malformed value"), value.getMessage());
  }

  @Test
  void baseUrlsKeepTheirPathPrefixAndLoseTheTrailingSlash() {
    assertEquals("http://prom:9090", PrometheusQuery.baseUri("http://prom:9090/").toString());
    assertEquals("https://mon.example/prometheus", PrometheusQuery.baseUri(" https://mon.example/prometheus ")
        .toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"prom:9090", "ftp://prom", "http://", "http://prom:9090/?x=1", "http://u:p@prom:9090",
      "http://prom 9090"})
  void badBaseUrlsAreRefused(String url) {
    assertThrows(IllegalArgumentException.class, () -> PrometheusQuery.baseUri(url));
  }
}
