package dev.headroom.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.SortedSet;
import org.junit.jupiter.api.Test;

class SysfsParseTest {
  @Test
  void cpuListRangesAndSingles() throws Exception {
    SortedSet<Integer> ids = CpuList.parse("0-2,5,7-8\n", Path.of("online"));
    assertEquals(List.of(0, 1, 2, 5, 7, 8), List.copyOf(ids));
  }

  @Test
  void cpuListRejectsGarbage() {
    assertThrows(ReadException.class, () -> CpuList.parse("0-", Path.of("online")));
    assertThrows(ReadException.class, () -> CpuList.parse("3-1", Path.of("online")));
    assertThrows(ReadException.class, () -> CpuList.parse("a", Path.of("online")));
  }

  @Test
  void defaultRoutePicksLowestMetricUpRoute() {
    String table = "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
        + "ens5\t00000000\t0100000A\t0003\t0\t0\t200\t00000000\t0\t0\t0\n"
        + "eth0\t00000000\t0100000A\t0003\t0\t0\t100\t00000000\t0\t0\t0\n"
        + "wt0\t00004064\t00000000\t0001\t0\t0\t0\t0000C0FF\t0\t0\t0\n";
    assertEquals(Optional.of("eth0"), DefaultRoute.parse(table.lines()));
  }

  @Test
  void defaultRouteIgnoresDownRoutesAndGarbledLines() {
    String table = "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\n"
        + "eth0\t00000000\t0100000A\t0002\t0\t0\t100\t00000000\t0\t0\t0\n"
        + "garbage line\n"
        + "eth1\t00000000\t0100000A\t0003\t0\t0\tX\t00000000\t0\t0\t0\n";
    assertEquals(Optional.empty(), DefaultRoute.parse(table.lines()));
  }

  @Test
  void wireguardUeventIsRecognised() {
    assertTrue(NetInterfaceReader.isWireguardUevent("DEVTYPE=wireguard\nINTERFACE=wt0\nIFINDEX=5\n"));
    assertEquals(false, NetInterfaceReader.isWireguardUevent("INTERFACE=wt0\nIFINDEX=5\n"));
  }
}
