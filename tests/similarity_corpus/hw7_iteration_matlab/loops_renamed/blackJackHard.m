function [raMi62, tuMi67] = blackJackHard(kaPe45, siTu13, miLo15)
% Four card-counting players and the dealer play one round.
siTu13 = arrayfun(@kaMi6, siTu13);
miLo15 = arrayfun(@kaMi6, miLo15);
nePe23 = cell(1, 5);
for kaZo49 = 1:5
    nePe23{kaZo49} = siTu13(1);
    siTu13(1) = [];
end
for kaZo49 = 1:5
    nePe23{kaZo49} = [nePe23{kaZo49}, siTu13(1)];
    siTu13(1) = [];
end
zoRa1 = true(1, 5);
while any(zoRa1)
    for kaZo49 = 1:5
        if ~zoRa1(kaZo49)
            continue;
        end
        if kaZo49 == 5
            neRa60 = tuRa22(nePe23{5});
            xaXa24 = neRa60 < 17 || (neRa60 == 17 && any(nePe23{5} == 11));
        else
            kaRa28 = [miLo15, nePe23{kaZo49}(1)];
            for tuVo55 = 1:5
                kaRa28 = [kaRa28, nePe23{tuVo55}(2:end)];
            end
            xaXa24 = siPe9(tuRa22(nePe23{kaZo49}), kaRa28) >= kaPe45(kaZo49);
        end
        if xaXa24
            nePe23{kaZo49} = [nePe23{kaZo49}, siTu13(1)];
            siTu13(1) = [];
            zoRa1(kaZo49) = tuRa22(nePe23{kaZo49}) <= 21;
        else
            zoRa1(kaZo49) = false;
        end
    end
end
raMi62 = zeros(1, 5);
for kaZo49 = 1:5
    raMi62(kaZo49) = tuRa22(nePe23{kaZo49});
end
tuMi67 = [];
for kaZo49 = 1:4
    if raMi62(kaZo49) <= 21 && (raMi62(5) > 21 || raMi62(kaZo49) > raMi62(5))
        tuMi67 = [tuMi67, kaZo49];
    end
end
end

function neRa60 = kaMi6(xaPe3)
if xaPe3 == 65
    neRa60 = 11;
elseif xaPe3 == 74 || xaPe3 == 75 || xaPe3 == 81
    neRa60 = 10;
else
    neRa60 = xaPe3;
end
end

function tuKa58 = tuRa22(loRa7)
tuKa58 = 0;
duTu0 = 0;
for zoNe26 = 1:length(loRa7)
    tuKa58 = tuKa58 + loRa7(zoNe26);
    duTu0 = duTu0 + (loRa7(zoNe26) == 11);
end
while tuKa58 > 21 && duTu0 > 0
    tuKa58 = tuKa58 - 10;
    duTu0 = duTu0 - 1;
end
end

function voZo38 = siPe9(peDu61, kaRa28)
neKa11 = [0, 4 * ones(1, 8), 16, 4];   % by value 1..11: none of 1, four of 2..9, 16 tens, 4 aces
for zoNe26 = 1:length(kaRa28)
    neKa11(kaRa28(zoNe26)) = neKa11(kaRa28(zoNe26)) - 1;
end
miDu50 = 0;
tuKa58 = 0;
for neRa60 = 2:11
    tuKa58 = tuKa58 + neKa11(neRa60);
    if (neRa60 == 11 && 1 <= 21 - peDu61) || (neRa60 ~= 11 && neRa60 <= 21 - peDu61)
        miDu50 = miDu50 + neKa11(neRa60);
    end
end
voZo38 = miDu50 / tuKa58;
end
