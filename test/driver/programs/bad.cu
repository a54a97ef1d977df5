// Does not compile (used by the driver's CPU test for error reporting).
__global__ void broken(float *p) {
  p[threadIdx.x] = undeclared_variable;
}
int main() { return 0; }
