package dev.strata.engine;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.module.ModuleReader;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The engine's API is what its module exports, and nothing the API declares may mention a type an
 * embedder cannot name: every public or protected member of an exported class uses only types
 * from exported packages (or other modules). javac's {@code -Xlint:exports} says the same, but
 * the build compiles the classes outside the module, so this test holds the rule.
 */
class ExportedApiTest {
    private static final Module ENGINE = Engine.class.getModule();

    @Test
    void theEngineRunsAsANamedModule() {
        assertThat(ENGINE.isNamed()).as("the tests run on the module path").isTrue();
        assertThat(ENGINE.getName()).isEqualTo("dev.strata.engine");
        assertThat(ENGINE.isExported("dev.strata.engine")).isTrue();
        assertThat(ENGINE.isExported("dev.strata.engine.version")).as("an internal package").isFalse();
    }

    @Test
    void noExportedSignatureMentionsAnInternalType() throws Exception {
        List<Class<?>> api = exportedClasses();
        assertThat(api).as("the exported classes").contains(Engine.class, dev.strata.engine.checkpoint.Delta.class);
        TreeSet<String> leaks = new TreeSet<>();
        for (Class<?> c : api) {
            check(c.getGenericSuperclass(), c.getName() + " extends", leaks);
            for (Type t : c.getGenericInterfaces()) {
                check(t, c.getName() + " implements", leaks);
            }
            for (Constructor<?> k : c.getDeclaredConstructors()) {
                if (visible(k.getModifiers())) {
                    checkExecutable(k, c.getName() + "(...)", leaks);
                }
            }
            for (Method m : c.getDeclaredMethods()) {
                if (visible(m.getModifiers()) && !m.isSynthetic()) {
                    check(m.getGenericReturnType(), c.getName() + "." + m.getName() + " returns", leaks);
                    checkExecutable(m, c.getName() + "." + m.getName(), leaks);
                }
            }
            for (Field f : c.getDeclaredFields()) {
                if (visible(f.getModifiers())) {
                    check(f.getGenericType(), c.getName() + "." + f.getName(), leaks);
                }
            }
        }
        assertThat(leaks).as("API members that mention internal types").isEmpty();
    }

    @Test
    void theStoresTheEngineKeepsAreNotOpenedOrChangedFromOutside() throws Exception {
        assertThat(Modifier.isPublic(Class.forName("dev.strata.engine.Checkpoints").getModifiers()))
                .as("the checkpoint store").isFalse();
        for (Method m : DeltaChain.class.getDeclaredMethods()) {
            if (List.of("open", "linkFiles", "append", "enforceBudget", "clear", "close").contains(m.getName())) {
                assertThat(Modifier.isPublic(m.getModifiers())).as("DeltaChain." + m.getName()).isFalse();
            }
        }
        assertThat(AutoCloseable.class.isAssignableFrom(DeltaChain.class)).as("only the engine closes its chain").isFalse();
    }

    private static void checkExecutable(Executable e, String where, TreeSet<String> leaks) {
        for (Type p : e.getGenericParameterTypes()) {
            check(p, where + " takes", leaks);
        }
        for (Type x : e.getGenericExceptionTypes()) {
            check(x, where + " throws", leaks);
        }
    }

    private static void check(Type t, String where, TreeSet<String> leaks) {
        switch (t) {
            case null -> { }
            case Class<?> c when c.isArray() -> check(c.getComponentType(), where, leaks);
            case Class<?> c -> {
                if (c.getModule() == ENGINE && !ENGINE.isExported(c.getPackageName())) {
                    leaks.add(where + " " + c.getName());
                }
            }
            case ParameterizedType p -> {
                check(p.getRawType(), where, leaks);
                for (Type a : p.getActualTypeArguments()) {
                    check(a, where, leaks);
                }
            }
            case GenericArrayType g -> check(g.getGenericComponentType(), where, leaks);
            case WildcardType w -> {
                for (Type b : w.getUpperBounds()) {
                    check(b, where, leaks);
                }
                for (Type b : w.getLowerBounds()) {
                    check(b, where, leaks);
                }
            }
            case TypeVariable<?> v -> {
                for (Type b : v.getBounds()) {
                    check(b, where, leaks);
                }
            }
            default -> leaks.add(where + " an unknown kind of type " + t);
        }
    }

    /** Public classes of exported packages, nested ones only when every enclosing class is public too. */
    private static List<Class<?>> exportedClasses() throws IOException, ClassNotFoundException {
        List<Class<?>> out = new ArrayList<>();
        var reference = ENGINE.getLayer().configuration().findModule(ENGINE.getName()).orElseThrow().reference();
        try (ModuleReader reader = reference.open()) {
            for (String resource : reader.list().filter(r -> r.endsWith(".class")).toList()) {
                String name = resource.substring(0, resource.length() - ".class".length()).replace('/', '.');
                if (name.equals("module-info")) {
                    continue;
                }
                Class<?> c = Class.forName(name, false, ExportedApiTest.class.getClassLoader());
                if (ENGINE.isExported(c.getPackageName()) && reachable(c)) {
                    out.add(c);
                }
            }
        }
        return out;
    }

    private static boolean reachable(Class<?> c) {
        for (Class<?> k = c; k != null; k = k.getEnclosingClass()) {
            if (!Modifier.isPublic(k.getModifiers()) || k.isAnonymousClass() || k.isLocalClass()) {
                return false;
            }
        }
        return true;
    }

    private static boolean visible(int modifiers) {
        return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
    }
}
