/**
 * The page sweep at a phone's widths, 360 and 390 px (test/support/sweep-suite.ts): layout, 跳到正文, the
 * accessibility tree, the Tab walk, axe by day and by night, and tap targets, on one visit per page and width.
 */
import { describeSweep } from '../support/sweep-suite';

describeSweep([360, 390]);
