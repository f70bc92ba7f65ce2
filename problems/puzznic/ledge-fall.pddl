; a fall off a ledge: the tile drops two rows and lands beside its partner
; optimal 2 moves (simulator BFS)
; Board:
;   ######
;   #a...#
;   ###..#
;   #....#
;   #...a#
;   ######
(define (problem puzznic-ledge-fall)
  (:domain puzznic)
  (:objects
    r2-c2 r2-c3 r2-c4 r2-c5 - cell
    r3-c4 r3-c5 - cell
    r4-c2 r4-c3 r4-c4 r4-c5 - cell
    r5-c2 r5-c3 r5-c4 r5-c5 - cell
    tile-a - kind)
  (:init
    (falling)
    (= (total-cost) 0)
    (right-of r2-c2 r2-c3)
    (right-of r2-c3 r2-c4)
    (right-of r2-c4 r2-c5)
    (below r2-c4 r3-c4)
    (below r2-c5 r3-c5)
    (right-of r3-c4 r3-c5)
    (below r3-c4 r4-c4)
    (below r3-c5 r4-c5)
    (right-of r4-c2 r4-c3)
    (below r4-c2 r5-c2)
    (right-of r4-c3 r4-c4)
    (below r4-c3 r5-c3)
    (right-of r4-c4 r4-c5)
    (below r4-c4 r5-c4)
    (below r4-c5 r5-c5)
    (right-of r5-c2 r5-c3)
    (right-of r5-c3 r5-c4)
    (right-of r5-c4 r5-c5)
    (has r2-c2 tile-a)
    (empty r2-c3)
    (empty r2-c4)
    (empty r2-c5)
    (empty r3-c4)
    (empty r3-c5)
    (empty r4-c2)
    (empty r4-c3)
    (empty r4-c4)
    (empty r4-c5)
    (empty r5-c2)
    (empty r5-c3)
    (empty r5-c4)
    (has r5-c5 tile-a)
  )
  (:goal (and
    (empty r2-c2) (empty r2-c3) (empty r2-c4) (empty r2-c5) (empty r3-c4) (empty r3-c5) (empty r4-c2) (empty r4-c3)
    (empty r4-c4) (empty r4-c5) (empty r5-c2) (empty r5-c3) (empty r5-c4) (empty r5-c5)))
  (:metric minimize (total-cost)))
