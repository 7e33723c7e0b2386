// Reads an artifact's manifest without a GPU, then runs a kernel when a GPU
// is there. Prints "package ok" on success.
#include <blk/runtime.h>

#include <cstdio>

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  try {
    std::vector<unsigned char> bytes = blk::readBinaryFile(argv[1]);
    blk::FatbinReader reader(bytes.data(), bytes.size(), argv[1]);
    blk::Manifest m = blk::parseManifest(reader.manifestJson(), argv[1]);
    std::printf("images: %s\nkernels:", reader.describe().c_str());
    for (const blk::KernelDesc &k : m.kernels)
      std::printf(" %s", k.name.c_str());
    std::printf("\n");
    try {
      blk::Context ctx;
      blk::Module mod = ctx.load(argv[1]);
      std::vector<float> x = {1.5f, -2.0f, 3.25f};
      blk::DeviceBuffer<float> dx(ctx, x), out(ctx, 3);
      mod.kernel("double_grid").launch(dx, out, 3);
      if (out.download() != std::vector<float>{3.0f, -4.0f, 6.5f})
        return 1;
      std::printf("ran double_grid on %s\n", ctx.device().name.c_str());
    } catch (const blk::Error &e) {
      std::printf("no GPU run: %s\n", e.what());
    }
  } catch (const blk::Error &e) {
    std::printf("%s\n", e.what());
    return 1;
  }
  std::printf("package ok\n");
  return 0;
}
