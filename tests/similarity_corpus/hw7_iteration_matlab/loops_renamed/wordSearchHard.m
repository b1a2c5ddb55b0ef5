function neVo52 = wordSearchHard(kaTu42, miTu30)
% Every occurrence of every word, wrapping around the edges; one '@' border per missing word.
[siDu47, loDu10] = size(kaTu42);
zoNe12 = false(siDu47, loDu10);
tuDu32 = 0;
raSi44 = miTu30;
while ~isempty(raSi44)
    [loXa68, raSi44] = raPe54(raSi44, ',');
    loXa68 = lower(strtrim(loXa68));
    if isempty(loXa68)
        continue;
    end
    duXa34 = length(loXa68);
    miMi18 = false;
    for kaZo43 = 1:siDu47
        for xaPe3 = 1:loDu10
            for kaZo49 = 1:4
                if kaZo49 <= 2
                    if duXa34 > loDu10
                        continue;
                    end
                    miSi14 = 3 - 2 * kaZo49;
                    kaVo48 = kaZo43 * ones(1, duXa34);
                    voNe8 = mod(xaPe3 - 1 + miSi14 * (0:duXa34 - 1), loDu10) + 1;
                else
                    if duXa34 > siDu47
                        continue;
                    end
                    miSi14 = 7 - 2 * kaZo49;
                    kaVo48 = mod(kaZo43 - 1 + miSi14 * (0:duXa34 - 1), siDu47) + 1;
                    voNe8 = xaPe3 * ones(1, duXa34);
                end
                neMi25 = sub2ind([siDu47, loDu10], kaVo48, voNe8);
                if strcmp(lower(kaTu42(neMi25)), loXa68)
                    zoNe12(neMi25) = true;
                    miMi18 = true;
                end
            end
        end
    end
    if ~miMi18
        tuDu32 = tuDu32 + 1;
    end
end
neVo52 = kaTu42;
neVo52(zoNe12) = '#';
for zoNe26 = 1:tuDu32
    neVo52 = [repmat('@', 1, size(neVo52, 2) + 2); ...
              repmat('@', size(neVo52, 1), 1), neVo52, repmat('@', size(neVo52, 1), 1); ...
              repmat('@', 1, size(neVo52, 2) + 2)];
end
