// One instance of each mangling construct the demangler must cover that the kernel-shaped
// sources do not: operators, constructors and destructors, special names (vtables, typeinfo,
// guard variables, thunks), every builtin type, references, arrays, function and member
// pointers, literals of every integer type, char and negative literals, vector types,
// std::string with its ABI tag, local statics with discriminators, unnamed types, variadic
// packs, template template parameters, and dependent expressions in signatures.
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace ns {
enum Color { Red, Green, Blue };
enum class Scoped : short { A = -3, B = 7 };
struct Base {
  virtual ~Base();
  virtual int f(int) const;
  virtual void g() volatile;
};
struct Other { virtual void h(); virtual ~Other(); };
struct Derived : Base, Other {
  Derived();
  Derived(const Derived&);
  Derived(Derived&&) noexcept;
  ~Derived() override;
  int f(int) const override;
  void h() override;
  Derived& operator=(const Derived&);
  Derived& operator+=(int);
  bool operator==(const Derived&) const;
  bool operator<(const Derived&) const;
  int operator[](std::size_t) const;
  int operator()(int, float) &&;
  void operator()() &;
  operator bool() const;
  explicit operator int*() const;
  Derived* operator->();
  Derived& operator++();
  Derived operator++(int);
  Derived& operator<<(const char*);
  void* operator new(std::size_t);
  void operator delete(void*);
  void* operator new[](std::size_t);
  void operator delete[](void*);
  static int counter;
  int member;
  void method(int) const volatile;
};
Derived::Derived() {}
Derived::~Derived() {}
int Derived::f(int) const { return 0; }
void Derived::h() {}
int Derived::counter = 0;
Base::~Base() {}
int Base::f(int) const { return 1; }
void Base::g() volatile {}
void Other::h() {}
Other::~Other() {}

template <typename T> struct Box {
  T value;
  Box();
  ~Box();
  template <typename U> Box(const Box<U>&);
  template <typename U> U convert() const;
  template <typename U> operator Box<U>() const;
  static Box make(T);
};
template <typename T> struct Box2 {};
template <template <typename> class Tmpl, typename T> void use_template_template(Tmpl<T>) {}

template <typename T> void take(T) {}
template <typename T> void take_ref(T&&) {}
template <typename... Ts> void variadic(Ts... ts) {}
template <typename... Ts> void variadic_refs(Ts&&... ts) {}
template <typename... Ts> void variadic_ptrs(const Ts*... ts) {}
template <typename T, typename... Rest> void head_tail(T, Box<Rest>...) {}
template <auto V> void by_value() {}
template <char C> void by_char() {}
template <int N> void by_int(int (&)[N]) {}
template <int N> void arr2(std::array<float, N * 2>) {}
template <int N> std::enable_if_t<(N > 4), void> big_only() {}
template <int N> std::enable_if_t<(N <= 4), int> small_only() { return 0; }
template <typename T> auto add_one(T t) -> decltype(t + 1) { return t + 1; }
template <typename T> auto size_of(T t) -> decltype(sizeof(T)) { return sizeof(t); }
template <typename T> void ptr_to_member(int T::*) {}
template <typename T> void ptr_to_method(void (T::*)(int) const volatile) {}
template <typename R, typename... A> void fn_ptr(R (*)(A...)) {}
template <typename F> void callable(F&& f) { f(); }
template <int (*F)(int)> void with_fn() {}
template <int Derived::*M> void with_member() {}
template <int* P> void with_ptr() {}
template <typename T, T V> struct constant {};
template <typename T> void cst(T) {}
template <typename T, std::size_t N> void array_ref(T (&)[N]) {}
template <typename T> void rvalue(T&&, const T&, volatile T*) {}

int square(int x) { return x * x; }
int global_value = 3;
namespace {
struct Hidden { int x; };
int hidden_fn(Hidden h) { return h.x; }
}  // namespace
inline namespace v1 { struct Inline {}; }

struct WithUnnamed { struct { int a; } anon; enum { E1, E2 } e; };

using vf4 = float __attribute__((vector_size(16)));
using vi8 = int __attribute__((vector_size(32)));

int local_statics(int k) {
  static int counter = 0;
  if (k) { static int counter = 1; return counter; }
  { static int counter = 2; (void)counter; }
  auto l1 = [](int a) { static int in_lambda = a; return in_lambda; };
  auto l2 = [&](auto x) { return x + k; };
  struct Local { int v; int get() const { return v; } };
  return l1(k) + l2(1) + l2(2.0) + Local{k}.get() + counter;
}

void all_builtins(void*, bool, char, signed char, unsigned char, short, unsigned short, int,
                  unsigned int, long, unsigned long, long long, unsigned long long, __int128,
                  unsigned __int128, float, double, long double, __float128, wchar_t, char16_t,
                  char32_t, decltype(nullptr), _Float16, ...) {}
void char8(char8_t) {}
void arrays(int[3], int (*)[4], int (&)[5][6], const char (&)[2]) {}
void functions(void (*)(), int (*)(int, ...), void (&)(double), void (*(*)(int))(char),
               void (*)() noexcept) {}
void members(int Derived::*, int (Derived::*)(int) const, void (Derived::*)() &,
             void (Derived::*)(int) const volatile, int Derived::**) {}
void qualifiers(const int*, volatile int*, const volatile int*, int* const*, int* __restrict__,
                const int* const* volatile*) {}
void vectors(vf4, vi8*, const vf4&) {}
void complexes(_Complex double, _Complex float*) {}
void strings(const std::string&, std::string, std::wstring&, const char*, std::vector<std::string>) {}
std::string returns_string(int) { return {}; }
void smart(std::unique_ptr<int>, std::shared_ptr<const Derived>&, std::function<void(int)>) {}
void maps(std::map<std::string, std::vector<int>>&) {}
void anon_types(decltype(WithUnnamed::anon)*, decltype(WithUnnamed::e)) {}
void enums(Color, Scoped, Hidden*, Inline) {}

void instantiate_constructs() {
  Derived d;
  take(1); take(1u); take(1L); take(2UL); take(3LL); take(4ULL); take('c'); take(1.0);
  take(1.0f); take(true); take(nullptr); take(static_cast<short>(1)); take(L'x');
  take(u8"x"); take(u"x"); take(U"x");
  take(Red); take(Scoped::A); take(&square); take(&Derived::member); take(&Derived::f);
  take(Box<int>{}); take(Box<Box<const char*>>{}); take(std::make_pair(1, 2.0));
  int x = 0;
  take_ref(x); take_ref(1); take_ref(static_cast<const int&>(x)); take_ref(d);
  variadic(); variadic(1, 2.0, 'c', &x); variadic_refs(x, 1, d); variadic_ptrs(&x, "s");
  head_tail(1, Box<int>{}, Box<float>{});
  by_value<5>(); by_value<-5>(); by_value<5u>(); by_value<'a'>(); by_value<true>();
  by_value<Red>(); by_value<Scoped::A>(); by_value<Scoped::B>(); by_value<&square>();
  by_value<&global_value>(); by_value<nullptr>(); by_value<(unsigned char)200>();
  by_value<(short)-7>(); by_value<(long long)-9>(); by_value<18446744073709551615ull>();
  by_char<'\n'>(); by_char<'z'>();
  int a4[4]; by_int<4>(a4);
  arr2<3>({});
  big_only<8>(); small_only<2>();
  add_one(1); add_one(1.5); size_of(d);
  ptr_to_member<Derived>(&Derived::member);
  ptr_to_method<Derived>(&Derived::method);
  fn_ptr(&square); fn_ptr<void, int, float>((void (*)(int, float))nullptr);
  callable([] {}); callable([&] { (void)x; });
  with_fn<&square>(); with_member<&Derived::member>(); with_ptr<&global_value>();
  cst(constant<int, 7>{}); cst(constant<bool, false>{}); cst(constant<Color, Blue>{});
  cst(constant<long, -1>{});
  char buf[16]; array_ref(buf); array_ref(a4);
  rvalue<int>(1, x, &x);
  use_template_template(Box<int>{}); use_template_template<Box2, long>({});
  hidden_fn({1});
  local_statics(1);
  Box<int> b; Box<float> bf(b); (void)bf.convert<int>(); (void)static_cast<Box<double>>(b);
  Box<int>::make(1);
}
}  // namespace ns
