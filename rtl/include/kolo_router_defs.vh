// kolo_router_defs.vh - layout of a buffered flit inside the router (the
// entries of the input units' front registers F0/F1, see
// rtl/router/kolo_router_input.v). Include inside a module body.
/* verilator lint_off UNUSEDPARAM */
localparam KOLO_E_TAIL    = 64;   // [63:0] data, then the corrected tail and head bits
localparam KOLO_E_HEAD    = 65;
localparam KOLO_E_JUNK    = 66;   // discard: not part of a good packet
localparam KOLO_E_CAND_LO = 67;   // [73:67] cand1: ports allowed on VC class 1
localparam KOLO_E_CAND0_LO = 74;  // [80:74] cand0: the deterministic port (class 0)
localparam KOLO_E_PROD_LO = 81;   // [86:81] productive ports (route-state rewrite)
localparam KOLO_E_W       = 87;
/* verilator lint_on UNUSEDPARAM */
