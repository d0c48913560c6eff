/*
 * CUDA graphs in the CUPTI test double: capture, instantiate, launch; one
 * record per node with the launch's correlation id and the executable graph's
 * ids, no launch callback per node, GRAPH_TRACE, VPROF_SIM_GRAPH_NODES for
 * graphs instantiated while the kernel kind was off, and the device-buffer
 * leak of graph records (VPROF_SIM_DEVICE_BUFFER_LEAK).
 */
#include "sim_client.h"

#define NODES 5 /* 3 kernels, a copy, a set */

static simcuda_graph_exec capture_and_instantiate(simcuda_stream s) {
    if (simcuda_graph_begin_capture(s) != 0) return NULL;
    simcuda_launch_kernel(s, "node_a", GRID, BLOCK, 2000);
    simcuda_memcpy(SIMCUDA_MEMCPY_HTOD, 4096, s);
    simcuda_launch_kernel(s, "node_b", GRID, BLOCK, 2000);
    simcuda_memset(4096, 0, s);
    simcuda_launch_kernel(s, "node_c", GRID, BLOCK, 2000);
    simcuda_graph g = simcuda_graph_end_capture(s);
    simcuda_graph_exec e = simcuda_graph_instantiate(g);
    simcuda_graph_destroy(g);
    return e;
}

static void enable_gpu_kinds(void) {
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMSET);
}

static void settle(void) {
    simcuda_synchronize();
    cuptiActivityFlushAll(0);
}

static int count_calls(CUpti_CallbackId cbid, int site) {
    int n = 0;
    for (int i = 0; i < calls.n; i++) n += calls.cbid[i] == cbid && calls.site[i] == site;
    return n;
}

TEST(aGraphLaunchGivesOneRecordPerNodeWithItsLaunchAndGraphIds) {
    client_setup(1 << 16, 8);
    simcuda_stream s = simcuda_stream_create();
    enable_gpu_kinds();
    simcuda_graph_exec e = capture_and_instantiate(s);
    EXPECT(e != NULL && simcuda_graph_node_count(e) == NODES && simcuda_graph_exec_id(e) != 0);
    cuptiEnableDomain(1, client_handle, CUPTI_CB_DOMAIN_RUNTIME_API);
    cuptiEnableDomain(1, client_handle, CUPTI_CB_DOMAIN_DRIVER_API);
    simcuda_graph_launch(e, s);
    simcuda_graph_launch(e, s);
    settle();
    EXPECT_EQ(client.by_kind[CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL], 6);
    EXPECT_EQ(client.by_kind[CUPTI_ACTIVITY_KIND_MEMCPY], 2);
    EXPECT_EQ(client.by_kind[CUPTI_ACTIVITY_KIND_MEMSET], 2);
    /* the API: cudaGraphLaunch and cuGraphLaunch once per launch, nothing per node */
    EXPECT_EQ(calls.n, 8);
    EXPECT_EQ(count_calls(CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000, CUPTI_API_ENTER), 2);
    EXPECT_EQ(count_calls(CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, CUPTI_API_EXIT), 2);
    EXPECT_EQ(count_calls(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, CUPTI_API_ENTER), 0);
    uint32_t corr1 = calls.correlation[0], corr2 = calls.correlation[4];
    EXPECT_NE(corr1, 0);
    EXPECT_NE(corr2, 0);
    EXPECT_NE(corr1, corr2);
    for (int launch = 0; launch < 2; launch++) {
        uint32_t corr = launch == 0 ? corr1 : corr2;
        for (int i = 0; i < 3; i++) {
            const CUpti_ActivityKernel10 *k = &client_nth(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, launch * 3 + i)->kernel;
            const CUpti_ActivityKernel10 *first = &client_nth(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, i)->kernel;
            EXPECT_EQ(k->correlationId, corr);
            EXPECT_EQ(k->graphId, simcuda_graph_exec_id(e));
            EXPECT_NE(k->graphNodeId, 0);
            EXPECT_EQ(k->graphNodeId, first->graphNodeId); /* the same node each launch */
            EXPECT_EQ(k->streamId, s);
            EXPECT_NE(k->start, 0);
            EXPECT_GT(k->end, k->start);
        }
        const CUpti_ActivityMemcpy6 *m = &client_nth(CUPTI_ACTIVITY_KIND_MEMCPY, launch)->memcpy;
        const CUpti_ActivityMemset4 *z = &client_nth(CUPTI_ACTIVITY_KIND_MEMSET, launch)->memset;
        EXPECT_EQ(m->correlationId, corr);
        EXPECT_EQ(m->graphId, simcuda_graph_exec_id(e));
        EXPECT_NE(m->graphNodeId, 0);
        EXPECT_EQ(z->correlationId, corr);
        EXPECT_EQ(z->graphId, simcuda_graph_exec_id(e));
        EXPECT_NE(z->graphNodeId, 0);
    }
    const char *names[3] = { "node_a", "node_b", "node_c" };
    for (int i = 0; i < 3; i++) EXPECT_STREQ(client_nth(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, i)->kernel.name, names[i]);
    /* nodes run in order on the launch stream */
    EXPECT_GE(client_nth(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, 1)->kernel.start,
              client_nth(CUPTI_ACTIVITY_KIND_MEMCPY, 0)->memcpy.end);
    simcuda_graph_exec_destroy(e);
    client_teardown();
}

TEST(workIssuedWhileCapturingBecomesNodesAndDoesNotRun) {
    client_setup(1 << 16, 8);
    simcuda_stream s = simcuda_stream_create(), other = simcuda_stream_create();
    enable_gpu_kinds();
    cuptiEnableCallback(1, client_handle, CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000);
    EXPECT_EQ(simcuda_graph_begin_capture(s), 0);
    EXPECT_EQ(simcuda_graph_begin_capture(s), -1); /* already capturing */
    simcuda_launch_kernel(s, "captured", GRID, BLOCK, 1000);
    simcuda_launch_kernel(other, "eager", GRID, BLOCK, 1000); /* another stream runs */
    simcuda_graph g = simcuda_graph_end_capture(s);
    EXPECT(g != NULL && simcuda_graph_end_capture(s) == NULL);
    settle();
    EXPECT_EQ(client.by_kind[CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL], 1);
    EXPECT_STREQ(client_nth(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, 0)->kernel.name, "eager");
    /* the call still happens */
    EXPECT_EQ(count_calls(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, CUPTI_API_ENTER), 2);
    simcuda_graph_exec e = simcuda_graph_instantiate(g);
    EXPECT_EQ(simcuda_graph_node_count(e), 1);
    simcuda_graph_destroy(g);
    simcuda_graph_exec_destroy(e);
    client_teardown();
}

TEST(graphTraceGivesOneRecordPerLaunchInsteadOfItsNodes) {
    client_setup(1 << 16, 8);
    simcuda_stream s = simcuda_stream_create();
    enable_gpu_kinds();
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_GRAPH_TRACE);
    simcuda_graph_exec e = capture_and_instantiate(s);
    simcuda_graph_launch(e, s);
    settle();
    EXPECT_EQ(client.by_kind[CUPTI_ACTIVITY_KIND_GRAPH_TRACE], 1);
    EXPECT_EQ(client.by_kind[CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL], 0);
    EXPECT_EQ(client.by_kind[CUPTI_ACTIVITY_KIND_MEMCPY], 0);
    const CUpti_ActivityGraphTrace2 *t = &client_nth(CUPTI_ACTIVITY_KIND_GRAPH_TRACE, 0)->graph;
    EXPECT_EQ(t->graphId, simcuda_graph_exec_id(e));
    EXPECT_NE(t->correlationId, 0);
    EXPECT_GT(t->end, t->start);
    EXPECT_EQ(t->streamId, s);
    simcuda_graph_exec_destroy(e);
    client_teardown();
}

/* A graph captured and instantiated while subscribed but with no kind on (a
 * dormant agent), replayed after the kinds are enabled. */
static long replay_a_graph_instantiated_while_dormant(int session_before) {
    client_setup(1 << 16, 8);
    simcuda_stream s = simcuda_stream_create();
    if (session_before) { /* e.g. torch.profiler's warm-up run before capture */
        enable_gpu_kinds();
        cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
        cuptiActivityDisable(CUPTI_ACTIVITY_KIND_MEMCPY);
        cuptiActivityDisable(CUPTI_ACTIVITY_KIND_MEMSET);
    }
    simcuda_graph_exec e = capture_and_instantiate(s);
    enable_gpu_kinds();
    for (int i = 0; i < 4; i++) simcuda_graph_launch(e, s);
    simcuda_launch_kernel(s, "eager", GRID, BLOCK, 1000); /* always recorded */
    settle();
    long graph_records = client.by_kind[CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL] - 1 + client.by_kind[CUPTI_ACTIVITY_KIND_MEMCPY] +
                         client.by_kind[CUPTI_ACTIVITY_KIND_MEMSET];
    simcuda_graph_exec_destroy(e);
    client_teardown();
    return graph_records;
}

TEST(byDefaultAGraphInstantiatedWhileDormantIsDelivered) {
    EXPECT_EQ(replay_a_graph_instantiated_while_dormant(0), 4 * NODES);
}

TEST(byDefaultAGraphInstantiatedAfterAProfilingSessionIsNeverDelivered) {
    EXPECT_EQ(replay_a_graph_instantiated_while_dormant(1), 0);
}

TEST(graphNodesLostLosesEveryGraphInstantiatedWhileDormant) {
    sim_switch("VPROF_SIM_GRAPH_NODES", "lost");
    EXPECT_EQ(replay_a_graph_instantiated_while_dormant(0), 0);
}

TEST(graphNodesDeliveredDeliversThemEvenAfterASession) {
    sim_switch("VPROF_SIM_GRAPH_NODES", "delivered");
    EXPECT_EQ(replay_a_graph_instantiated_while_dormant(1), 4 * NODES);
}

/* parcagpu#23: graph records pin device buffers; past the pool, timestamps go bad. */
TEST(graphRecordsSpendTheDeviceBufferPoolThenLoseTheirTimestamps) {
    size_t size = sizeof(size_t), bytes = 32 * 4, limit = 3; /* 4 records a buffer, 3 buffers: 12 records */
    cuptiActivitySetAttribute(CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_SIZE, &size, &bytes);
    cuptiActivitySetAttribute(CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_POOL_LIMIT, &size, &limit);
    client_setup(1 << 16, 8);
    simcuda_stream s = simcuda_stream_create();
    enable_gpu_kinds();
    simcuda_graph_exec e = capture_and_instantiate(s);
    uint64_t free0, free1, total;
    simcuda_mem_get_info(&free0, &total);
    for (int i = 0; i < 4; i++) simcuda_graph_launch(e, s); /* 20 records */
    simcuda_mem_get_info(&free1, &total);
    settle();
    struct simcuda_stats st;
    simcuda_get_stats(&st);
    EXPECT_EQ(st.device_timestamps_torn, 1);
    EXPECT_EQ(st.device_timestamps_dropped, 7);
    EXPECT_EQ(st.device_buffer_bytes, 3 * 32 * 4);
    EXPECT_EQ(free0 - free1, 0); /* 3 pre-allocated = the limit */
    long zero = 0, torn = 0, good = 0;
    for (long i = 0; i < client.nkept; i++) {
        uint64_t *start, *end;
        CUpti_Activity *r = &client.kept[i].any;
        if (r->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) { start = &client.kept[i].kernel.start; end = &client.kept[i].kernel.end; }
        else if (r->kind == CUPTI_ACTIVITY_KIND_MEMCPY) { start = &client.kept[i].memcpy.start; end = &client.kept[i].memcpy.end; }
        else if (r->kind == CUPTI_ACTIVITY_KIND_MEMSET) { start = &client.kept[i].memset.start; end = &client.kept[i].memset.end; }
        else continue;
        if (*start == 0 && *end == 0) zero++;
        else if (*end < *start) torn++;
        else good++;
    }
    EXPECT_EQ(good, 12);
    EXPECT_EQ(torn, 1);
    EXPECT_EQ(zero, 7);
    simcuda_graph_exec_destroy(e);
    client_teardown();
}

TEST(thePoolGrowsWithGraphRecordsAndShowsInDeviceMemory) {
    size_t size = sizeof(size_t), bytes = 32 * 2; /* 2 records a buffer */
    cuptiActivitySetAttribute(CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_SIZE, &size, &bytes);
    client_setup(1 << 16, 8);
    simcuda_stream s = simcuda_stream_create();
    enable_gpu_kinds();
    simcuda_graph_exec e = capture_and_instantiate(s);
    uint64_t free0, free1, total;
    simcuda_mem_get_info(&free0, &total);
    for (int i = 0; i < 4; i++) simcuda_graph_launch(e, s); /* 20 records pin 10 buffers, 3 were there */
    simcuda_mem_get_info(&free1, &total);
    EXPECT_EQ(free0 - free1, (10 - 3) * 64);
    settle();
    simcuda_graph_exec_destroy(e);
    client_teardown();
}

TEST_MAIN(
    CASE(aGraphLaunchGivesOneRecordPerNodeWithItsLaunchAndGraphIds),
    CASE(workIssuedWhileCapturingBecomesNodesAndDoesNotRun),
    CASE(graphTraceGivesOneRecordPerLaunchInsteadOfItsNodes),
    FRESH(byDefaultAGraphInstantiatedWhileDormantIsDelivered),
    FRESH(byDefaultAGraphInstantiatedAfterAProfilingSessionIsNeverDelivered),
    FRESH(graphNodesLostLosesEveryGraphInstantiatedWhileDormant),
    FRESH(graphNodesDeliveredDeliversThemEvenAfterASession),
    FRESH(graphRecordsSpendTheDeviceBufferPoolThenLoseTheirTimestamps),
    FRESH(thePoolGrowsWithGraphRecordsAndShowsInDeviceMemory),
)
