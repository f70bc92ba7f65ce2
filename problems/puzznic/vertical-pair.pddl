; vertical pair: a tile pushed off a ledge lands on its partner
; optimal 1 moves (simulator BFS)
; Board:
;   ####
;   #a.#
;   ##.#
;   ##a#
;   ####
(define (problem puzznic-vertical-pair)
  (:domain puzznic)
  (:objects
    r2-c2 r2-c3 - cell
    r3-c3 - cell
    r4-c3 - cell
    tile-a - kind)
  (:init
    (falling)
    (= (total-cost) 0)
    (right-of r2-c2 r2-c3)
    (below r2-c3 r3-c3)
    (below r3-c3 r4-c3)
    (has r2-c2 tile-a)
    (empty r2-c3)
    (empty r3-c3)
    (has r4-c3 tile-a)
  )
  (:goal (and
    (empty r2-c2) (empty r2-c3) (empty r3-c3) (empty r4-c3)))
  (:metric minimize (total-cost)))
