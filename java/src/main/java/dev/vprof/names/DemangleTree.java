package dev.vprof.names;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The tree {@link DemangleParser} builds and {@link DemanglePrinter} prints: one record per
 * construct of the Itanium ABI grammar, the builtin and operator tables, and the exception that
 * turns anything malformed, unsupported or over a limit into "leave the name as it is".
 */
final class DemangleTree {
    private DemangleTree() {}

    /** Thrown for anything malformed, unsupported or over a limit; the caller returns the input. */
    static final class Unsupported extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Unsupported() {
            super(null, null, false, false); // control flow only: no stack trace needed
        }
    }

    static Unsupported fail() {
        return new Unsupported();
    }

    // ---------------------------------------------------------------------------------------
    // The tree. Each record is one construct of the ABI grammar. Identity matters: a
    // back-reference is the very same object, and the printer keys some state on identity.
    // ---------------------------------------------------------------------------------------

    sealed interface Node
            permits Name, Builtin, StdSub, Qual, Local, DefaultArg, Template, Args, Tagged, Ctor,
                    Operator, LiteralOperator, Conversion, Lambda, Unnamed, TemplateParam,
                    FunctionParam, PackExpansion, CvQual, Modified, PtrMem, ArrayType,
                    VectorType, FunctionType, Encoding, Special, Clone, Literal, Unary, Binary,
                    Trinary, Cast, Decltype, ExprList, FnQuals, NameMod {}

    /** An identifier, or fixed text such as {@code (anonymous namespace)} or {@code auto}. */
    record Name(String text) implements Node {}

    /** How a literal of a builtin type is printed ({@code 5u}, {@code true}, {@code (char)65}). */
    enum Style { DEFAULT, INT, UNSIGNED, LONG, ULONG, LLONG, ULLONG, BOOL, FLOAT, VOID }

    record Builtin(String text, Style style) implements Node {}

    /** {@code St}, {@code Sa}, {@code Ss}, ...: printed in c++filt's verbose (full) form. */
    record StdSub(String text) implements Node {}

    /** {@code scope::name}. */
    record Qual(Node scope, Node name) implements Node {}

    /** {@code function::entity}, for entities declared inside a function body. */
    record Local(Node function, Node entity) implements Node {}

    /** {@code {default arg#N}::entity}: an entity inside a default argument. */
    record DefaultArg(int index, Node entity) implements Node {}

    /** {@code name<args>}. */
    record Template(Node name, Args args) implements Node {}

    /** A template argument list; nested inside another list it is an argument pack. */
    record Args(List<Node> items) implements Node {}

    /** {@code name[abi:tag]}. */
    record Tagged(Node name, String tag) implements Node {}

    /** A constructor or destructor, named after the last source name seen (as c++filt does). */
    record Ctor(Node name, boolean destructor) implements Node {}

    /** An operator: its two-letter code, how c++filt prints it, and its operand count. */
    record Op(String code, String text, int arity) {}

    /** {@code operator+}, {@code operator new} and the like, as a function name. */
    record Operator(Op op) implements Node {}

    /** {@code operator"" _suffix}. */
    record LiteralOperator(Node suffix) implements Node {}

    /** {@code operator type}. */
    record Conversion(Node type) implements Node {}

    /** A closure type: {@code {lambda(params)#N}}. */
    record Lambda(List<Node> params, int index) implements Node {}

    /** {@code {unnamed type#N}}. */
    record Unnamed(int index) implements Node {}

    /** {@code T_} ({@code index} 0), {@code T0_} (1), ...: resolved while printing. */
    record TemplateParam(int index) implements Node {}

    /** {@code {parm#N}} in a dependent expression; index 0 means {@code this}. */
    record FunctionParam(int index) implements Node {}

    /** {@code Dp}: a pattern repeated for each element of the pack it mentions. */
    record PackExpansion(Node pattern) implements Node {}

    /** One of {@code const}, {@code volatile}, {@code restrict} applied to a type. */
    record CvQual(Node inner, String word) implements Node {}

    enum Kind { POINTER, LREF, RREF, COMPLEX, IMAGINARY }

    /** {@code P}, {@code R}, {@code O}, {@code C} or {@code G} applied to a type. */
    record Modified(Kind kind, Node inner) implements Node {}

    /** {@code member Class::*}. */
    record PtrMem(Node cls, Node member) implements Node {}

    /** {@code elem [dim]}; dim may be null (unknown bound). */
    record ArrayType(Node dim, Node elem) implements Node {}

    /** {@code elem __vector(dim)}. */
    record VectorType(Node dim, Node elem) implements Node {}

    /**
     * A function type. {@code ret} is null when the mangling has no return type; {@code quals}
     * are the qualifiers of the implicit object parameter and the exception specification, in
     * printing order ({@code const volatile &}).
     */
    record FunctionType(Node ret, List<Node> params, List<String> quals) implements Node {}

    /** A function: its name, the qualifiers of its nested name, and its type. */
    record Encoding(Node name, List<String> quals, FunctionType type) implements Node {}

    /** {@code vtable for X}, {@code guard variable for X}, thunks and the like. */
    record Special(String prefix, Node inner) implements Node {}

    /** {@code encoding [clone .suffix]}. */
    record Clone(Node encoding, String suffix) implements Node {}

    /** {@code L <type> [n] <value> E}: the value is kept as spelled. */
    record Literal(Node type, String value, boolean negative) implements Node {}

    /** Operators in dependent expressions (template arguments, decltype, array bounds). */
    record Unary(Op op, Node operand) implements Node {}

    record Binary(Op op, Node left, Node right) implements Node {}

    record Trinary(Op op, Node first, Node second, Node third) implements Node {}

    /** A C-style cast {@code (type)expr}. */
    record Cast(Node type, Node operand) implements Node {}

    /** {@code decltype (expression)}. */
    record Decltype(Node expression) implements Node {}

    /** The arguments of a call in an expression. */
    record ExprList(List<Node> items) implements Node {}

    /** Printer-only: qualifiers waiting to be printed after a parameter list. */
    record FnQuals(List<String> words) implements Node {}

    /** Printer-only: a function's name, waiting to be printed inside its declarator. */
    record NameMod(Node name) implements Node {}

    static final Name ANONYMOUS_NAMESPACE = new Name("(anonymous namespace)");
    static final Name STRING_LITERAL = new Name("string literal");
    static final StdSub STD = new StdSub("std");
    static final Builtin DECLTYPE_NULLPTR = new Builtin("decltype(nullptr)", Style.DEFAULT);

    /** Builtin types with a one-letter code, indexed by letter. */
    static final Builtin[] BUILTINS = new Builtin[26];

    static {
        builtin('a', "signed char", Style.DEFAULT);
        builtin('b', "bool", Style.BOOL);
        builtin('c', "char", Style.DEFAULT);
        builtin('d', "double", Style.FLOAT);
        builtin('e', "long double", Style.FLOAT);
        builtin('f', "float", Style.FLOAT);
        builtin('g', "__float128", Style.FLOAT);
        builtin('h', "unsigned char", Style.DEFAULT);
        builtin('i', "int", Style.INT);
        builtin('j', "unsigned int", Style.UNSIGNED);
        builtin('l', "long", Style.LONG);
        builtin('m', "unsigned long", Style.ULONG);
        builtin('n', "__int128", Style.DEFAULT);
        builtin('o', "unsigned __int128", Style.DEFAULT);
        builtin('s', "short", Style.DEFAULT);
        builtin('t', "unsigned short", Style.DEFAULT);
        builtin('v', "void", Style.VOID);
        builtin('w', "wchar_t", Style.DEFAULT);
        builtin('x', "long long", Style.LLONG);
        builtin('y', "unsigned long long", Style.ULLONG);
        builtin('z', "...", Style.DEFAULT);
    }

    static void builtin(char code, String text, Style style) {
        BUILTINS[code - 'a'] = new Builtin(text, style);
    }

    /** Builtin types with a {@code D} prefix (the second letter is the key). */
    static final Map<Character, Builtin> D_BUILTINS = Map.of(
            'd', new Builtin("decimal64", Style.DEFAULT),
            'e', new Builtin("decimal128", Style.DEFAULT),
            'f', new Builtin("decimal32", Style.DEFAULT),
            'h', new Builtin("half", Style.FLOAT),
            'u', new Builtin("char8_t", Style.DEFAULT),
            's', new Builtin("char16_t", Style.DEFAULT),
            'i', new Builtin("char32_t", Style.DEFAULT),
            'n', DECLTYPE_NULLPTR);

    /** Operator codes as the ABI lists them; text is what c++filt prints in expressions. */
    static final Map<String, Op> OPERATORS = operators(
            "aN &= 2", "aS = 2", "aa && 2", "ad & 1", "an & 2", "aw co_await# 1", "cc const_cast 2",
            "cl () 2", "cm , 2", "co ~ 1", "dV /= 2", "da delete[]# 1", "dc dynamic_cast 2",
            "de * 1", "dl delete# 1", "ds .* 2", "dt . 2", "dv / 2", "eO ^= 2", "eo ^ 2",
            "eq == 2", "ge >= 2", "gt > 2", "ix [] 2", "lS <<= 2", "le <= 2", "ls << 2",
            "lt < 2", "mI -= 2", "mL *= 2", "mi - 2", "ml * 2", "mm -- 1", "na new[] 3",
            "ne != 2", "ng - 1", "nt ! 1", "nw new 3", "oR |= 2", "oo || 2", "or | 2",
            "pL += 2", "pl + 2", "pm ->* 2", "pp ++ 1", "ps + 1", "pt -> 2", "qu ? 3",
            "rM %= 2", "rS >>= 2", "rc reinterpret_cast 2", "rm % 2", "rs >> 2",
            "sc static_cast 2", "ss <=> 2", "st sizeof# 1", "sz sizeof# 1");

    /** Operators this demangler accepts inside expressions (others are refused). */
    static final Set<String> EXPRESSION_UNARY =
            Set.of("ad", "de", "ng", "nt", "co", "ps", "sz", "st");
    static final Set<String> EXPRESSION_BINARY = Set.of(
            "aN", "aS", "aa", "an", "cm", "dV", "dv", "eO", "eo", "eq", "ge", "gt", "ix", "lS",
            "le", "ls", "lt", "mI", "mL", "mi", "ml", "ne", "oR", "oo", "or", "pL", "pl", "pm",
            "rM", "rS", "rm", "rs", "ss", "ds", "sc", "dc", "cc", "rc", "cl", "dt", "pt");
    static final Set<String> NEW_CASTS = Set.of("sc", "dc", "cc", "rc");

    static Map<String, Op> operators(String... specs) {
        Map<String, Op> map = new HashMap<>();
        for (String spec : specs) {
            String[] parts = spec.split(" ");
            // '#' stands for the trailing space c++filt keeps after word operators in expressions
            String text = parts[1].replace('#', ' ');
            map.put(parts[0], new Op(parts[0], text, Integer.parseInt(parts[2])));
        }
        return Map.copyOf(map);
    }

    /** A name together with the cv/ref qualifiers its nested-name carried for a member function. */
    record NameResult(Node node, List<String> quals) {
        NameResult(Node node) {
            this(node, List.of());
        }
    }

}
