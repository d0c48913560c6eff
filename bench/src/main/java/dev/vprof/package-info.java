/** JMH benchmarks for vprof; each benchmark sits in the package of the code it measures. */
package dev.vprof;
