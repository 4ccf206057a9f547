// kolo_defs.vh - field positions shared by every kolo RTL module.
// Include inside a module body: these are localparams, not macros, so that the
// same names can be used by Verilator, Icarus and Yosys alike.
// The authoritative description is docs/packet-format.md; the header flit
// fields come from rtl/regs/kolo_ni_regs.toml (kolo_ni_regs.vh here,
// kolo_ni_regs.h for C), the route state fields are mirrored by kolo_route.h.

// Not every module uses every name: that is expected of a shared definitions file.
/* verilator lint_off UNUSEDPARAM */

// ---- flit as carried on router channels -------------------------------------
// {vc[1:0], head, tail, data[63:0]}  (68 bits)
localparam KOLO_FLIT_W      = 68;
localparam KOLO_DATA_W      = 64;
localparam KOLO_FLIT_TAIL   = 64;
localparam KOLO_FLIT_HEAD   = 65;
localparam KOLO_FLIT_VC_LO  = 66;   // vc = {vnet, class}; class 0 = escape VC0
localparam KOLO_VC_W        = 2;

// ---- ports ------------------------------------------------------------------
localparam KOLO_NUM_PORTS   = 7;
localparam KOLO_PORT_XP     = 0;
localparam KOLO_PORT_XM     = 1;
localparam KOLO_PORT_YP     = 2;
localparam KOLO_PORT_YM     = 3;
localparam KOLO_PORT_ZP     = 4;
localparam KOLO_PORT_ZM     = 5;
localparam KOLO_PORT_LOCAL  = 6;

// ---- header flit 0 (positions from rtl/regs/kolo_ni_regs.toml) --------------
`include "kolo_ni_regs.vh"
localparam KOLO_H0_DST_LO   = `KOLO_H0_DST_LO;    // [11:0]  {z,y,x} 4 bits each
localparam KOLO_H0_SRC_LO   = `KOLO_H0_SRC_LO;    // [23:12]
localparam KOLO_H0_OP_LO    = `KOLO_H0_OP_LO;     // [27:24]
localparam KOLO_H0_VNET     = `KOLO_H0_VNET_LO;   // 0 request, 1 response
localparam KOLO_H0_LEN_LO   = `KOLO_H0_LEN_LO;    // [34:29] payload flits 0..32
localparam KOLO_H0_ORDERED  = `KOLO_H0_ORDERED_LO;
localparam KOLO_H0_RS_LO    = `KOLO_H0_RS_LO;     // [58:36] route state, 23 bits
localparam KOLO_RS_W        = `KOLO_H0_RS_HI - `KOLO_H0_RS_LO + 1;
// route state, bit positions relative to KOLO_H0_RS_LO (same as a table entry)
localparam KOLO_RS_SIGN_X   = 0;    // 1 = travel in the minus direction
localparam KOLO_RS_SIGN_Y   = 1;
localparam KOLO_RS_SIGN_Z   = 2;
localparam KOLO_RS_HOPS_X   = 3;    // [6:3]
localparam KOLO_RS_HOPS_Y   = 7;    // [10:7]
localparam KOLO_RS_HOPS_Z   = 11;   // [14:11]
localparam KOLO_RS_FS_VALID = 15;
localparam KOLO_RS_FS_PORT  = 16;   // [18:16]
localparam KOLO_RS_LS_VALID = 19;
localparam KOLO_RS_LS_PORT  = 20;   // [22:20]
// bits [63:59] of flit 0 are reserved and must be zero

// ---- header flit 1 ----------------------------------------------------------
localparam KOLO_H1_ADDR_LO  = `KOLO_H1_ADDR_LO;   // [47:0] remote address
localparam KOLO_H1_TAG_LO   = `KOLO_H1_TAG_LO;    // [55:48]
localparam KOLO_H1_KEY_LO   = `KOLO_H1_KEY_LO;    // [63:56] protection key

localparam KOLO_MAX_PAYLOAD = 32;   // payload flits
localparam KOLO_MAX_PKT     = 34;   // flits, headers included
/* verilator lint_on UNUSEDPARAM */
