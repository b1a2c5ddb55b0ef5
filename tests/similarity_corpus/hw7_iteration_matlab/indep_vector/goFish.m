function [msg, pts] = goFish(h1, h2, stock)
% goFish: both players lay down pairs, then take turns asking
H = {h1, h2};
pts = [0 0];
for p = 1:2
    rest = [];
    for c = H{p}
        j = find(rest == c, 1);
        if isempty(j)
            rest(end+1) = c;
        else
            rest(j) = [];
            pts(p) = pts(p) + 1;
        end
    end
    H{p} = rest;
end
p = 1;
while numel(H{1}) > 0 && numel(H{2}) > 0
    q = 3 - p;
    ask = H{p}(1);
    j = find(H{q} == ask, 1);
    if j
        H{p}(1) = [];
        H{q}(j) = [];
        pts(p) = pts(p) + 1;
    else
        card = stock(1);
        stock(1) = [];
        H{p} = [H{p}(2:end) card H{p}(1)];
        same = H{p} == card;
        if nnz(same) == 2
            H{p} = H{p}(~same);
            pts(p) = pts(p) + 1;
        end
    end
    p = q;
end
if pts(1) == pts(2)
    msg = 'It''s a tie!';
elseif pts(1) > pts(2)
    msg = 'Player 1 won!';
else
    msg = 'Player 2 won!';
end
end
