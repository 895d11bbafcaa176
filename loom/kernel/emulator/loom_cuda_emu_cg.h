// The CPU kernel emulator's cooperative groups (part of loom_cuda_emu.h, inlined after
// loom_cuda_emu_warp.h, whose collectives it uses): this_grid().sync() waits until every
// live thread of the grid arrives. The emulator runs a kernel that names this_grid with one
// OS thread per block (executor.cpp), so all blocks are live at once, as a cooperative
// launch guarantees on a GPU; a block's threads reach the grid barrier as fibers reach
// __syncthreads, and the block then waits for the others. this_thread_block() is the block.
namespace loom_emu {
inline void grid_sync(int line) { vote(line, Collective::kGridSync, 0, false); }
inline unsigned long long block_rank(const ThreadCtx* c) {
  return (static_cast<unsigned long long>(c->block_idx.z) * c->grid_dim.y + c->block_idx.y) * c->grid_dim.x +
         c->block_idx.x;
}
inline unsigned int thread_rank_in_block(const ThreadCtx* c) {
  return (c->thread_idx.z * c->block_dim.y + c->thread_idx.y) * c->block_dim.x + c->thread_idx.x;
}
}  // namespace loom_emu

namespace cooperative_groups {
class grid_group {
 public:
  void sync() const { loom_emu::grid_sync(0); }
  bool is_valid() const { return true; }
  unsigned long long num_threads() const {
    const loom_emu::ThreadCtx* c = loom_emu_current;
    return static_cast<unsigned long long>(c->grid_dim.x) * c->grid_dim.y * c->grid_dim.z * c->block_dim.x *
           c->block_dim.y * c->block_dim.z;
  }
  unsigned long long size() const { return num_threads(); }
  unsigned long long thread_rank() const {
    const loom_emu::ThreadCtx* c = loom_emu_current;
    return loom_emu::block_rank(c) * (c->block_dim.x * c->block_dim.y * c->block_dim.z) +
           loom_emu::thread_rank_in_block(c);
  }
  unsigned long long num_blocks() const {
    const loom_emu::ThreadCtx* c = loom_emu_current;
    return static_cast<unsigned long long>(c->grid_dim.x) * c->grid_dim.y * c->grid_dim.z;
  }
  unsigned long long block_rank() const { return loom_emu::block_rank(loom_emu_current); }
  dim3 group_dim() const { return dim3(loom_emu_current->grid_dim.x, loom_emu_current->grid_dim.y, loom_emu_current->grid_dim.z); }
};
inline grid_group this_grid() { return grid_group(); }

class thread_block {
 public:
  void sync() const { loom_emu::syncthreads(0); }
  unsigned int num_threads() const {
    const loom_emu::ThreadCtx* c = loom_emu_current;
    return c->block_dim.x * c->block_dim.y * c->block_dim.z;
  }
  unsigned int size() const { return num_threads(); }
  unsigned int thread_rank() const { return loom_emu::thread_rank_in_block(loom_emu_current); }
  dim3 group_index() const { return dim3(loom_emu_current->block_idx.x, loom_emu_current->block_idx.y, loom_emu_current->block_idx.z); }
  dim3 thread_index() const { return dim3(loom_emu_current->thread_idx.x, loom_emu_current->thread_idx.y, loom_emu_current->thread_idx.z); }
  dim3 group_dim() const { return dim3(loom_emu_current->block_dim.x, loom_emu_current->block_dim.y, loom_emu_current->block_dim.z); }
};
inline thread_block this_thread_block() { return thread_block(); }
inline void sync(const grid_group& g) { g.sync(); }
inline void sync(const thread_block& b) { b.sync(); }
}  // namespace cooperative_groups
