# Embeds every .cuh under the folders `dirs` as a string in a generated header, so that NVRTC
# compiles the same device code that lives as real files in the source tree.
function(loom_embed_kernels target dirs)
  set(cuh_files)
  foreach(dir ${dirs})
    file(GLOB found CONFIGURE_DEPENDS ${dir}/*.cuh)
    list(APPEND cuh_files ${found})
  endforeach()
  set(out ${CMAKE_CURRENT_BINARY_DIR}/generated/loom_embedded_kernels.h)
  string(REPLACE ";" "," dirs_arg "${dirs}")  # a ; would end the shell command
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out} "-DDIRS=${dirs_arg}" -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/embed_kernels_run.cmake
    DEPENDS ${cuh_files} ${CMAKE_CURRENT_SOURCE_DIR}/cmake/embed_kernels_run.cmake
    COMMENT "Embedding CUDA kernel headers")
  add_custom_target(${target}_kernels DEPENDS ${out})
  add_dependencies(${target} ${target}_kernels)
endfunction()
