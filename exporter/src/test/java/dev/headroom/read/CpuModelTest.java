package dev.headroom.read;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CpuModelTest {
  @TempDir Path dir;

  @Test
  void anX86PeerIsKeyedByItsModelName() {
    String cpuinfo = "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz\n"
        + "flags\t\t: fpu avx512f\n\nprocessor\t: 1\nmodel name\t: Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz\n";
    assertEquals("Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz", CpuModel.parse(cpuinfo));
  }

  @Test
  void anArmPeerWithoutAModelNameIsKeyedByImplementerAndPart() {
    // A Graviton2 (Neoverse N1): Arm's kernels print no "model name".
    String cpuinfo = "processor\t: 0\nBogoMIPS\t: 243.75\nFeatures\t: fp asimd\nCPU implementer\t: 0x41\n"
        + "CPU architecture: 8\nCPU variant\t: 0x3\nCPU part\t: 0xd0c\nCPU revision\t: 1\n";
    assertEquals("arm implementer 0x41 part 0xd0c", CpuModel.parse(cpuinfo));
  }

  @Test
  void noCpuinfoIsUnknownNotAnError() throws Exception {
    assertEquals(CpuModel.UNKNOWN, CpuModel.read(dir));
    Files.writeString(dir.resolve("cpuinfo"), "processor\t: 0\n");
    assertEquals(CpuModel.UNKNOWN, CpuModel.read(dir));
  }
}
